import type { Agent } from "../loop/agent.js";
import type { QuotaGuard } from "../loop/quota.js";
import type { Db } from "../store/db.js";

/** What the console's RPCs run on. */
export interface ConsoleDeps {
  readonly db: Db;
  readonly agent: Agent;
  /** Drops a revoked token from the bearer cache of this process (and, on Postgres, tells the others). */
  readonly forgetToken: (tokenId: string) => void;
  /** Enforces and reports daily quotas. */
  readonly quotas: QuotaGuard;
  /** How long a one-time sign-in link works. */
  readonly signInLinkMs: number;
  /** The console's address as users reach it ("https://baton.example.com"), when not the request's own host. */
  readonly publicUrl?: string | undefined;
}

/** The console's base URL for links it hands out: the configured public URL, or the host the request was sent to. */
export function baseUrl(deps: ConsoleDeps, header: Headers): string {
  if (deps.publicUrl) return deps.publicUrl.replace(/\/+$/, "");
  return `http://${header.get("host") ?? "127.0.0.1:8787"}`;
}

/** The URL that signs a user in with a one-time code (the code stays in the fragment: never sent to a server or a Referer). */
export function signInUrl(base: string, code: string): string {
  return `${base}/sign-in#${code}`;
}
