/**
 * A TOTP secret through the secrets layer: the model writes `<secret>otp</secret>`, the handler
 * gets the current code, and neither the seed nor the code comes back in any result or error.
 */
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { describe, expect, it } from "vitest";
import type { RunContext } from "./run-task.js";
import { checkSecrets, secretsNote, withSecrets } from "./secrets.js";
import { secretsScreenMask } from "./secret-mask.js";
import { parseTotpSeed, totpCode, totpSecret } from "./totp.js";

const SEED = "JBSW Y3DP EHPK 3PXP";
const otp = totpSecret({ name: "otp", value: SEED, origins: ["*"] });
const ctx: RunContext = { sessionId: "s", toolcallId: "c", signal: new AbortController().signal };

/** Handlers that record what they were asked to type and show it back, as a field and its page would. */
function echoing() {
  const typed: string[] = [];
  const handlers = {
    typeText: async (p: { text: string; ref: string }) => {
      typed.push(p.text);
      return { evidence: { url: "https://a.example/2fa", focused: { ref: p.ref, role: "textbox", name: "Code", value: p.text } } };
    },
    takeSnapshot: async () => ({ url: "https://a.example/2fa", text: `[e1] textbox "Code" = "${typed.at(-1) ?? ""}"\n"You entered ${(typed.at(-1) ?? "").split("").join(" ")}; seed ${SEED}"` }),
  };
  return { typed, handlers: handlers as unknown as ClientToolHandlers<RunContext> };
}

describe("a one-time code secret", () => {
  it("types the seed's current code where the model wrote its placeholder, and masks the code and the seed in what comes back", async () => {
    const page = echoing();
    const h = withSecrets(page.handlers, [otp]);
    const before = totpCode(parseTotpSeed(SEED));
    const r = (await h.typeText({ ref: "e1", text: "<secret>otp</secret>" } as never, ctx)) as { evidence: { focused: { value: string } } };
    const after = totpCode(parseTotpSeed(SEED));
    expect(page.typed).toHaveLength(1);
    expect(page.typed[0]).toMatch(/^\d{6}$/);
    expect([before, after]).toContain(page.typed[0]);
    expect(r.evidence.focused.value).toBe("<secret>otp</secret>");
    const snap = (await h.takeSnapshot({} as never, ctx)) as { text: string };
    expect(snap.text).toBe(`[e1] textbox "Code" = "<secret>otp</secret>"\n"You entered <secret>otp</secret>; seed <secret>otp</secret>"`);
    expect(snap.text).not.toContain(page.typed[0]);
  });

  it("refuses a seed that is not one, naming the secret", () => {
    expect(() => checkSecrets([{ ...otp, value: "hunter2!" }], undefined)).toThrow(/secret "otp": the one-time code's key is not Base32/);
    expect(() => checkSecrets([otp], undefined)).not.toThrow();
  });

  it("tells the model it is a one-time code, never the seed", () => {
    const note = secretsNote([otp]);
    expect(note).toContain("<secret>otp</secret> (a one-time code: the current code is typed each time)");
    expect(note).not.toContain("JBSW");
  });

  it("a mask for a screenshot outside a run knows the seed and its recent codes", () => {
    const at = Date.now();
    const mask = secretsScreenMask([otp], { at });
    const seed = parseTotpSeed(SEED);
    expect(mask.shows(`code ${totpCode(seed, at)}`)).toBe(true);
    expect(mask.shows(`code ${totpCode(seed, at - 90_000)}`)).toBe(true);
    expect(mask.shows(SEED)).toBe(true);
    expect(mask.shows("nothing here")).toBe(false);
  });
});
