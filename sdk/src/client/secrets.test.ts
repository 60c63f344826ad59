import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { describe, expect, it } from "vitest";
import { ToolFailure } from "../contract/index.js";
import type { RunContext } from "./run-task.js";
import { maskText, secretsNote, withSecrets } from "./secrets.js";

const secrets = [
  { name: "pw", value: 'p"a\\ss  word', origins: ["https://app.example.com"] },
  { name: "token", value: "averylongtokenvalue-0123456789-abcdefghij", origins: ["*"] },
];

describe("masking", () => {
  it("replaces a value in every form the engine reports it: as is, quoted, squeezed, cut short", () => {
    expect(maskText('typed p"a\\ss  word here', secrets)).toBe("typed <secret>pw</secret> here");
    expect(maskText('[e3] textbox "Password" = "p\\"a\\\\ss word"', secrets)).toBe('[e3] textbox "Password" = "<secret>pw</secret>"');
    expect(maskText("key: averylongtokenvalue-0123…", secrets)).toBe("key: <secret>token</secret>…");
    // Not a prefix of the value: left alone.
    expect(maskText("averylongOTHER…", secrets)).toBe("averylongOTHER…");
    expect(maskText("nothing to see", secrets)).toBe("nothing to see");
  });

  it("replaces a value the page transformed: URL- and form-encoded, upper-cased, spelled out", () => {
    const pp = [{ name: "pp", value: 'Tr0ub4dor & 3/horse "x"' }];
    const form = new URLSearchParams({ pp: pp[0]!.value }).toString();
    expect(maskText(`http://a.example/check?${form}&next=1#pp=${encodeURIComponent(pp[0]!.value)}`, pp)).toBe(
      "http://a.example/check?pp=<secret>pp</secret>&next=1#pp=<secret>pp</secret>",
    );
    // Lower-case escapes, and the value in a path segment.
    expect(maskText("/u/Tr0ub4dor%20%26%203%2fhorse%20%22x%22/edit", pp)).toBe("/u/<secret>pp</secret>/edit");
    expect(maskText('You sent TR0UB4DOR & 3/HORSE "X".', pp)).toBe("You sent <secret>pp</secret>.");
    expect(maskText('Spelled out: T r 0 u b 4 d o r & 3 / h o r s e " x "', pp)).toBe("Spelled out: <secret>pp</secret>");
    expect(maskText("t·r·0·u·b·4·d·o·r·&·3·/·h·o·r·s·e·\\\"·x·\\\"", pp)).toBe("<secret>pp</secret>");
    expect(maskText("STRASSE 12", [{ name: "street", value: "straße 12" }])).toBe("<secret>street</secret>");
    // Other encoded text is left as it is.
    expect(maskText("/search?q=blue+mugs&page=2%2B", pp)).toBe("/search?q=blue+mugs&page=2%2B");
  });

  it("tells the model the names and where they may be typed, never the values", () => {
    const note = secretsNote(secrets);
    expect(note).toContain("<secret>pw</secret> (only on https://app.example.com)");
    expect(note).toContain("- <secret>token</secret>\n".trim());
    expect(note).not.toMatch(/ss +word/);
  });
});

/** Handlers that record what they were asked to type and echo it back, as a page would. */
function fakeEngine(url: () => string) {
  const typed: string[] = [];
  const handlers = {
    typeText: async (p: { text: string; ref: string }) => {
      typed.push(p.text);
      return { evidence: { url: url(), focused: { ref: p.ref, role: "textbox", name: "Password", value: p.text } } };
    },
    takeSnapshot: async () => ({ url: url(), text: `[e1] textbox "Password" = "${typed.at(-1) ?? ""}"`, screenshot: { mimeType: "image/jpeg", data: Uint8Array.of(1, 2, 3) } }),
    screenshot: async () => ({ image: { mimeType: "image/jpeg", data: Uint8Array.of(1, 2, 3) } }),
    click: async () => {
      throw new ToolFailure(ToolErrorCode.NOT_ACTIONABLE, `covered by a dialog saying ${typed.at(-1)}`);
    },
    navigate: async (p: { url: string }) => ({ url: p.url, evidence: { url: p.url, navigated: true } }),
  };
  return { typed, handlers: handlers as unknown as ClientToolHandlers<RunContext> };
}

const ctx = { sessionId: "s", toolcallId: "c", signal: new AbortController().signal };

describe("the secrets layer around the handlers", () => {
  it("types values for placeholders on allowed origins, masks every result, and withholds screenshots until the page changes", async () => {
    let url = "https://app.example.com/login";
    const engine = fakeEngine(() => url);
    const h = withSecrets(engine.handlers, secrets, { url: async () => url });
    const typed = await h.typeText({ ref: "e1", text: "<secret>pw</secret>!" } as never, ctx);
    expect(engine.typed).toEqual(['p"a\\ss  word!']);
    expect(JSON.stringify(typed)).toContain("<secret>pw</secret>!");
    expect(JSON.stringify(typed)).not.toMatch(/ss +word/);
    const snap = (await h.takeSnapshot({} as never, ctx)) as { text: string; screenshot: { data: Uint8Array; url: string } };
    expect(snap.text).toBe('[e1] textbox "Password" = "<secret>pw</secret>!"');
    expect(snap.screenshot.data.length).toBe(0);
    expect(snap.screenshot.url).toMatch(/^withheld/);
    const shot = (await h.screenshot({} as never, ctx)) as { image: { data: Uint8Array } };
    expect(shot.image.data.length).toBe(0);
    // A failure's message is masked too.
    await expect(h.click({ ref: "e2" } as never, ctx)).rejects.toThrow("covered by a dialog saying <secret>pw</secret>!");
    // Another page: screenshots come back.
    url = "https://app.example.com/home";
    await h.navigate({ url } as never, ctx);
    expect(((await h.screenshot({} as never, ctx)) as { image: { data: Uint8Array } }).image.data.length).toBe(3);
  });

  it("refuses a secret on another origin, and an unknown name, without typing anything", async () => {
    const engine = fakeEngine(() => "https://evil.example/login");
    const h = withSecrets(engine.handlers, secrets, { url: async () => "https://evil.example/login" });
    const denied = await h.typeText({ ref: "e1", text: "<secret>pw</secret>" } as never, ctx).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(ToolFailure);
    expect((denied as ToolFailure).code).toBe(ToolErrorCode.PERMISSION_DENIED);
    expect((denied as ToolFailure).message).toBe("<secret>pw</secret> may only be typed on https://app.example.com; this page is on https://evil.example. Do not type it here.");
    const unknown = await h.typeText({ ref: "e1", text: "<secret>pin</secret>" } as never, ctx).catch((e: unknown) => e);
    expect((unknown as ToolFailure).code).toBe(ToolErrorCode.INVALID_ARGUMENTS);
    expect((unknown as ToolFailure).message).toContain("<secret>pw</secret>, <secret>token</secret>");
    // "*" allows anywhere.
    await h.typeText({ ref: "e1", text: "<secret>token</secret>" } as never, ctx);
    expect(engine.typed).toEqual(["averylongtokenvalue-0123456789-abcdefghij"]);
  });

  it("checks the secrets before a run", () => {
    const h = fakeEngine(() => "").handlers;
    expect(() => withSecrets(h, [{ name: "1bad", value: "x" }])).toThrow(/secret name "1bad"/);
    expect(() => withSecrets(h, [{ name: "a", value: "" }])).toThrow(/is empty/);
    expect(() => withSecrets(h, [{ name: "a", value: "x", origins: ["nope"] }], { url: async () => "" })).toThrow(/not a URL/);
    expect(() => withSecrets(h, [{ name: "a", value: "x", origins: ["https://a.example"] }])).toThrow(/give the page/);
  });
});
