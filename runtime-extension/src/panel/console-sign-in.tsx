import { useEffect, useState } from "preact/hooks";
import { clearPendingLink, finishLink, loadPendingLink, type PendingLink, startLink } from "../device-link.js";

/**
 * "Sign in with the console": starts a device link at `backendUrl`, shows the code the
 * console's approval page must show, and waits for the approval (a link started before the
 * panel was closed is picked up again).
 */
export function ConsoleSignIn({ backendUrl }: { backendUrl: string }) {
  const [link, setLink] = useState<PendingLink>();
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void loadPendingLink().then((l) => l && setLink(l));
  }, []);

  useEffect(() => {
    if (!link) return;
    const stop = new AbortController();
    void finishLink(link, stop.signal).then((r) => {
      if (!r) return;
      setLink(undefined);
      setMessage(r.ok ? "Signed in with the console." : r.message);
    });
    return () => stop.abort();
  }, [link]);

  if (link) {
    return (
      <div class="console-link" role="status">
        <p>
          Approve this browser in the console tab. It shows the code <strong class="user-code">{link.userCode}</strong>: check it matches.
        </p>
        <button
          type="button"
          class="btn ghost"
          onClick={async () => {
            await clearPendingLink();
            setLink(undefined);
            setMessage("");
          }}
        >
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="console-link">
      <button
        type="button"
        class="btn ghost"
        disabled={busy || !backendUrl.trim()}
        onClick={async () => {
          setBusy(true);
          setMessage("");
          try {
            setLink(await startLink(backendUrl));
          } catch (e) {
            setMessage(`Could not start signing in at ${backendUrl}: ${e instanceof Error ? e.message : String(e)}`);
          } finally {
            setBusy(false);
          }
        }}
      >
        Sign in with the console
      </button>
      {message ? (
        <span class="form-note" role="status">
          {message}
        </span>
      ) : null}
    </div>
  );
}
