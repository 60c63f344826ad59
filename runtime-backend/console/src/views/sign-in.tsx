/** Signing in with a one-time link, and what a signed-out visitor sees. */
import type { Account } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { markInteractive } from "../ready.js";

/** The page a sign-in link opens: trades the code in its fragment for a session cookie. */
export function SignIn(p: { onSignedIn: (a: Account) => void }) {
  const [error, setError] = useState<string>();
  useEffect(() => {
    const code = location.hash.slice(1);
    // The code leaves the address bar (and history) at once: it works only once anyway.
    history.replaceState(null, "", "/sign-in");
    if (!code) {
      setError("This page signs you in from a link: open the sign-in link the server printed.");
      return;
    }
    consoleApi.signIn({ code }).then(
      (r) => r.account && p.onSignedIn(r.account),
      (e) => setError(errorText(e)),
    );
  }, []);
  return (
    <div class="center-card">
      <img src="/assets/icon.svg" alt="" width="40" height="40" />
      <h1>{error ? "Could not sign you in" : "Signing you in…"}</h1>
      {error ? <p role="alert">{error}</p> : <p aria-busy="true">One moment.</p>}
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
