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
  /** The console's address as users reach it ("https://baton.example.com"), when set: https makes its cookie Secure. */
  readonly publicUrl?: string | undefined;
  /**
   * The base of every link the console hands out (sign-in, approve): the public URL or the
   * listen address (`server/allowed-hosts.ts`, `linkBase`), never a request's `Host`, which the
   * client chooses.
   */
  readonly linkBase: () => string;
}

/** The URL that signs a user in with a one-time code (the code stays in the fragment: never sent to a server or a Referer). */
export function signInUrl(base: string, code: string): string {
  return `${base}/sign-in#${code}`;
}
