import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { consoleSecret } from "./access.js";
import { sessionCookie } from "./console-auth.js";

describe("the console's session cookie", () => {
  const secret = `cs_${"a".repeat(43)}`;

  it("is __Host- prefixed and Secure over https, plain over http, and read back either way", () => {
    const secure = sessionCookie(secret, 60_000, true);
    expect(secure).toBe(`__Host-baton_console=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure`);
    expect(sessionCookie(secret, 60_000, false)).toBe(`baton_console=${secret}; Path=/; HttpOnly; SameSite=Strict; Max-Age=60`);
    expect(consoleSecret(secure.split(";")[0])).toBe(secret);
    expect(consoleSecret(`other=1; baton_console=${secret}`)).toBe(secret);
  });

  it("refuses two of them, under either name", () => {
    for (const header of [`baton_console=${secret}; baton_console=${secret}`, `__Host-baton_console=${secret}; baton_console=cs_x`]) {
      let err: unknown;
      try {
        consoleSecret(header);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConnectError);
      expect((err as ConnectError).code).toBe(Code.InvalidArgument);
    }
  });
});
