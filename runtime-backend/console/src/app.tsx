/** The console's frame: who is signed in, the navigation, and the page for the path. */
import type { Account } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText, signedOut } from "./client.js";
import { navigate, usePath } from "./router.js";
import { ErrorNote } from "./ui.js";
import { DevicesPage } from "./views/devices.js";
import { LinkPage } from "./views/link.js";
import { MemoryPage } from "./views/memory.js";
import { PlaybooksPage } from "./views/playbooks.js";
import { SessionPage } from "./views/session.js";
import { SessionsPage } from "./views/sessions.js";
import { SignedOut, SignIn } from "./views/sign-in.js";
import { TrustPage } from "./views/trust.js";
import { UsagePage } from "./views/usage.js";
import { UsersPage } from "./views/users.js";

const nav: [string, string][] = [
  ["/sessions", "Sessions"],
  ["/playbooks", "Playbooks"],
  ["/memory", "Memory"],
  ["/usage", "Usage"],
  ["/trust", "Trust"],
  ["/devices", "Devices & tokens"],
];

function page(path: string, account: Account) {
  const [, section = "", id = ""] = path.split("/");
  switch (section) {
    case "":
    case "sessions":
      return id ? <SessionPage id={id} /> : <SessionsPage />;
    case "playbooks":
      return <PlaybooksPage name={decodeURIComponent(id)} />;
    case "memory":
      return <MemoryPage />;
    case "usage":
      return <UsagePage account={account} />;
    case "trust":
      return <TrustPage />;
    case "devices":
      return <DevicesPage />;
    case "users":
      return <UsersPage account={account} />;
    case "link":
      return <LinkPage id={id} account={account} />;
    default:
      return <p>Nothing here.</p>;
  }
}

/** The console. */
export function App() {
  const path = usePath();
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (path === "/sign-in") return;
    consoleApi.getAccount({}).then(
      (r) => setAccount(r.account ?? null),
      (e) => (signedOut(e) ? setAccount(null) : setError(errorText(e))),
    );
  }, [path === "/sign-in"]);

  if (path === "/sign-in") {
    return (
      <SignIn
        onSignedIn={(a) => {
          setAccount(a);
          const next = sessionStorage.getItem("baton.next");
          sessionStorage.removeItem("baton.next");
          navigate(next ?? "/sessions", true);
        }}
      />
    );
  }
  if (error) return <ErrorNote error={error} />;
  if (account === undefined) return <div class="loading" aria-busy="true" />;
  if (account === null) {
    if (path !== "/") sessionStorage.setItem("baton.next", path);
    return <SignedOut />;
  }
  const section = `/${path.split("/")[1] ?? ""}`;
  const links = account.admin ? [...nav, ["/users", "Users"] as [string, string]] : nav;
  return (
    <div class="shell">
      <aside class="sidebar">
        <a class="brand" href="/sessions">
          <img src="/assets/icon.svg" alt="" width="26" height="26" />
          <span>Baton</span>
        </a>
        <nav aria-label="Console">
          {links.map(([href, label]) => (
            <a href={href} class={section === href || (section === "/" && href === "/sessions") ? "active" : ""} aria-current={section === href ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div class="me">
          <div class="me-name" title={account.userId}>
            {account.name}
          </div>
          <div class="me-role">{account.admin ? "Admin" : "Member"}</div>
          <button
            type="button"
            class="link-button"
            onClick={async () => {
              await consoleApi.signOut({}).catch(() => undefined);
              setAccount(null);
              navigate("/", true);
            }}
          >
            Sign out
          </button>
        </div>
      </aside>
      <main class="main">{page(path, account)}</main>
    </div>
  );
}
