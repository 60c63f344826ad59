/** Signing in with a one-time link, and what a signed-out visitor sees. */
import type { Account } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText, signedOut } from "../client.js";
import { markInteractive } from "../ready.js";

/** "Ada Lovelace (local)", or just the id when the name is the id. */
function who(a: Account): string {
  return a.name && a.name !== a.userId ? `${a.name} (${a.userId})` : a.userId;
}

/**
 * The page a sign-in link opens. It says which account the link signs in (and which one is
 * signed in now, if another) and trades the code for a session cookie only when the person
 * clicks: any page can send a browser to a sign-in link, and that alone must not change who it
 * is signed in as (login CSRF).
 */
export function SignIn(p: { onSignedIn: (a: Account) => void }) {
  // Read once: the code leaves the address bar (and history) at once.
  const [code] = useState(() => location.hash.slice(1));
  const [target, setTarget] = useState<Account>();
  const [current, setCurrent] = useState<Account | null>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    history.replaceState(null, "", "/sign-in");
    if (!code) {
      setError("This page signs you in from a link: open the sign-in link the server printed.");
      return;
    }
    consoleApi.getSignInLink({ code }).then(
      (r) => setTarget(r.account),
      (e) => setError(errorText(e)),
    );
    consoleApi.getAccount({}).then(
      (r) => setCurrent(r.account ?? null),
      (e) => (signedOut(e) ? setCurrent(null) : setError(errorText(e))),
    );
  }, []);
  const ready = !error && target !== undefined && current !== undefined;
  useEffect(() => {
    if (ready) markInteractive();
  }, [ready]);
  const signIn = async () => {
    setBusy(true);
    try {
      const r = await consoleApi.signIn({ code });
      if (r.account) p.onSignedIn(r.account);
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  let body;
  if (error) {
    body = (
      <>
        <h1>Could not sign you in</h1>
        <p role="alert">{error}</p>
      </>
    );
  } else if (!target || current === undefined) {
    body = (
      <>
        <h1>Checking the link…</h1>
        <p aria-busy="true">One moment.</p>
      </>
    );
  } else if (current && current.userId === target.userId) {
    body = (
      <>
        <h1>You are signed in</h1>
        <p>
          You are already signed in as <strong>{who(current)}</strong>. The link stays unused.
        </p>
        <div class="actions">
          <button type="button" class="primary" onClick={() => p.onSignedIn(current)}>
            Go to the console
          </button>
        </div>
      </>
    );
  } else if (current) {
    body = (
      <>
        <h1>Switch accounts?</h1>
        <p>
          You are signed in as <strong>{who(current)}</strong>. This link signs you in as <strong>{who(target)}</strong> instead.
        </p>
        <p class="muted">Continue only if you opened this link yourself: whatever you do next, such as approving a device, is done as {target.name || target.userId}.</p>
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void signIn()}>
            Continue as {target.name || target.userId}
          </button>
          <button type="button" class="ghost" disabled={busy} onClick={() => p.onSignedIn(current)}>
            Stay {current.name || current.userId}
          </button>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <h1>Sign in to Baton</h1>
        <p>
          This link signs you in as <strong>{who(target)}</strong>{target.admin ? ", an admin" : ""}.
        </p>
        <div class="actions">
          <button type="button" class="primary" disabled={busy} onClick={() => void signIn()}>
            Sign in as {target.name || target.userId}
          </button>
        </div>
      </>
    );
  }
  return (
    <div class="center-card sign-in-card">
      <img src="/assets/icon.svg" alt="" width="40" height="40" />
      {body}
    </div>
  );
}

/** A visitor without a session: how to get in. */
export function SignedOut() {
  useEffect(markInteractive, []);
  return (
    <div class="center-card">
      <img src="/assets/icon.svg" alt="" width="40" height="40" />
      <h1>Sign in to Baton</h1>
      <p>Open the one-time sign-in link that the server printed when it started:</p>
      <pre class="code">Console: http://127.0.0.1:8787/sign-in#si_…</pre>
      <p class="muted">
        Need another? Run <code>baton user link &lt;user&gt;</code>, restart <code>npm start</code>, or ask an admin (Users).
      </p>
    </div>
  );
}
