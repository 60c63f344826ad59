/** The approval page a device sends the user to: approve or deny its link. */
import { type Account, type DeviceLink, DeviceLinkStatus } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { ago } from "../format.js";
import { ErrorNote } from "../ui.js";

/** The device link page; `account` is the signed-in account, which will own the device's token. */
export function LinkPage(p: { id: string; account: Account }) {
  const name = p.account.name || p.account.userId;
  const [link, setLink] = useState<DeviceLink>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    consoleApi.getDeviceLink({ linkId: p.id }).then(
      (r) => setLink(r.link),
      (e) => setError(errorText(e)),
    );
  }, [p.id]);
  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      setLink((await consoleApi.decideDeviceLink({ linkId: p.id, approve })).link);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="narrow">
      <div class="card link-card">
        <h1>Link a device</h1>
        <ErrorNote error={error} />
        {link ? (
          <>
            <dl class="facts">
              <dt>Device</dt>
              <dd>{link.deviceName}</dd>
              <dt>Program</dt>
              <dd class="mono">{link.client || "—"}</dd>
              {link.origin ? (
                <>
                  <dt>From</dt>
                  <dd class="mono">{link.origin}</dd>
                </>
              ) : null}
              <dt>Asked</dt>
              <dd>{ago(link.createdAt)}</dd>
              <dt>Account</dt>
              <dd>
                {name}
                {p.account.name && p.account.name !== p.account.userId ? <span class="muted mono"> ({p.account.userId})</span> : null}
              </dd>
            </dl>
            <p>Check that the device shows this code:</p>
            <p class="user-code" aria-label={`Code ${link.userCode.split("").join(" ")}`}>
              {link.userCode}
            </p>
            {link.status === DeviceLinkStatus.PENDING ? (
              <>
                <p class="owner">
                  Approving gives this device an API token of <strong>{name}</strong>: it will run tasks, and see sessions, as {name}.
                </p>
                <div class="actions">
                  <button type="button" class="primary" disabled={busy} onClick={() => void decide(true)}>
                    Approve for {name}
                  </button>
                  <button type="button" class="ghost" disabled={busy} onClick={() => void decide(false)}>
                    Deny
                  </button>
                </div>
              </>
            ) : (
              <p class="banner" role="status">
                {link.status === DeviceLinkStatus.APPROVED || link.status === DeviceLinkStatus.EXCHANGED
                  ? "Linked. Return to your device: it finishes on its own."
                  : link.status === DeviceLinkStatus.DENIED
                    ? "Denied. The device gets no access."
                    : "This link has expired. Start again on the device."}
              </p>
            )}
          </>
        ) : null}
      </div>
    </section>
  );
}
