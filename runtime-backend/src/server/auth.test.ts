import type { HandlerContext } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import type { Queryable } from "../store/db.js";
import { hashToken } from "../store/ids.js";
import { bearerAuth, bearerToken } from "./auth.js";

function ctx(authorization?: string): HandlerContext {
  return { requestHeader: new Headers(authorization ? { authorization } : {}) } as unknown as HandlerContext;
}

/** A token table that counts its lookups. */
function store(tokens: Record<string, string>) {
  let lookups = 0;
  const q: Queryable = {
    async query<R>(_sql: string, params?: readonly unknown[]) {
      lookups++;
      let user: string | undefined;
      for (const [t, u] of Object.entries(tokens)) if ((await hashToken(t)) === params?.[0]) user = u;
      return (user ? [{ user_id: user }] : []) as R[];
    },
  };
  return { q, lookups: () => lookups };
}

describe("bearer tokens", () => {
  it("reads only a well-formed header", () => {
    expect(bearerToken("Bearer bt_abcdefgh")).toBe("bt_abcdefgh");
    expect(bearerToken("bearer   bt_abcdefgh ")).toBe("bt_abcdefgh");
    for (const bad of [undefined, "", "Bearer", "Bearer short", "Basic dXNlcjpwYXNz", "Bearer a b c d e f g h", `Bearer ${"x".repeat(513)}`, "Bearer tök-en-with-ümlauts"]) {
      expect(bearerToken(bad), String(bad)).toBeUndefined();
    }
  });

  it("costs one store lookup per known token per minute, and per unknown token per ten seconds", async () => {
    const s = store({ bt_known_token_1: "alice" });
    const auth = bearerAuth(s.q);
    for (let i = 0; i < 50; i++) expect(await auth(ctx("Bearer bt_known_token_1"))).toBe("alice");
    for (let i = 0; i < 50; i++) await expect(auth(ctx("Bearer bt_made_up_token"))).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(s.lookups()).toBe(2);
    await expect(auth(ctx("Basic x"))).rejects.toMatchObject({ code: Code.Unauthenticated });
    expect(s.lookups()).toBe(2);
  });

  it("looks an unknown token up again after its negative entry expires (a token created since then works)", async () => {
    const tokens: Record<string, string> = {};
    const s = store(tokens);
    const auth = bearerAuth(s.q, { negativeCacheMs: 20 });
    await expect(auth(ctx("Bearer bt_created_later"))).rejects.toMatchObject({ code: Code.Unauthenticated });
    tokens.bt_created_later = "bob";
    await new Promise((r) => setTimeout(r, 30));
    expect(await auth(ctx("Bearer bt_created_later"))).toBe("bob");
  });
});
