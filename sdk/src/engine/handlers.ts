import type { Message } from "@bufbuild/protobuf";
import { type ClientToolCase, type ClientToolHandlers, toolRoutes } from "@baton/gen/baton/v1/tools_baton";
import { pageActionClass, screenMaskOf, toolByCase, type ToolRoute, typingOrigins } from "../contract/index.js";
import { refuseUnlessAllowed } from "../policy/site-policy.js";
import { openUrlPolicy } from "../policy/url-policy.js";
import { drag, click, hover } from "./actions/pointer.js";
import { pressKeys, typeText } from "./actions/keyboard.js";
import { scroll, selectOption, uploadFile } from "./actions/forms.js";
import { goBack, navigate, waitFor } from "./actions/navigation.js";
import { extract, screenshot } from "./actions/read.js";
import { selectText } from "./actions/select-text.js";
import { setValue } from "./actions/set-value.js";
import type { Engine } from "./engine.js";
import { TabSet } from "./actions/tabs.js";
import { actedOn } from "./acted-on.js";

/** The client tools the engine implements: all of them except ask_user, which is the app's. */
export type EngineToolCase = Exclude<ClientToolCase, "askUser">;

/** Handlers for every engine tool, typed from the proto: a tool without a handler fails to compile. */
export type EngineHandlers<Ctx = void> = Pick<ClientToolHandlers<Ctx>, EngineToolCase>;

/**
 * Holds every handler that works inside a page to the site policy (`decideAction`): on a page
 * the policy would not load nothing runs, reading included, and on a read-only site no call
 * that could change it; the call fails with PERMISSION_DENIED before it touches the page,
 * naming the site and the rule. Navigation and tab tools pass: where they go is the URL
 * policy's question, and they are how the agent leaves such a page.
 */
function siteGuarded<Ctx>(engine: Engine, handlers: EngineHandlers<Ctx>): EngineHandlers<Ctx> {
  const state = engine.state;
  const out: Record<string, unknown> = {};
  for (const [c, handler] of Object.entries(handlers) as [string, (p: Message, ctx: Ctx) => Promise<unknown>][]) {
    const tool: ToolRoute | undefined = toolByCase(toolRoutes, c);
    out[c] =
      !tool || tool.navigation
        ? handler
        : async (params: Message, ctx: Ctx) => {
            const policy = state.options.urlPolicy ?? openUrlPolicy;
            const risk = pageActionClass(tool, params);
            const where = await actedOn(state, engine.evidence, tool, params, risk);
            refuseUnlessAllowed(policy, where.page, risk, where.frames);
            return handler(params, ctx);
          };
  }
  return out as EngineHandlers<Ctx>;
}

/**
 * The engine as tool handlers, ready for `dispatchToolCall(toolCatalog, call, handlers, ctx)`.
 * Spread them with an `askUser` handler to get a full `ClientToolHandlers`. A call that would
 * change a page on a read-only site of the engine's policy, or any call inside a page the policy
 * would not load, fails before it runs.
 */
export function engineHandlers<Ctx = void>(engine: Engine): EngineHandlers<Ctx> {
  return siteGuarded(engine, pageHandlers<Ctx>(engine));
}

function pageHandlers<Ctx>(engine: Engine): EngineHandlers<Ctx> {
  let tabs: TabSet | undefined;
  const tabSet = (): TabSet => {
    tabs ??= new TabSet(engine.state);
    return tabs;
  };
  return {
    navigate: (p) => navigate(engine, p),
    goBack: (p) => goBack(engine, p),
    // The secrets layer's mask rides on the context (`MaskScope`): secrets are painted over in every screenshot.
    takeSnapshot: (p, ctx) =>
      engine.state.guard(() =>
        engine.snapshot({
          screenMask: screenMaskOf(ctx),
          offset: p.offset,
          includeScreenshot: p.includeScreenshot,
          includeOffscreen: p.includeOffscreen,
          full: p.full,
          ...(p.maxChars !== undefined ? { maxChars: p.maxChars } : {}),
          ...(p.ref ? { ref: p.ref } : {}),
        }),
      ),
    click: (p) => click(engine, p),
    // A secret's origins ride on the context (`TypingScope`): checked against the field's own frame.
    typeText: (p, ctx) => typeText(engine, p, typingOrigins(ctx)),
    pressKeys: (p) => pressKeys(engine, p),
    scroll: (p) => scroll(engine, p),
    selectOption: (p) => selectOption(engine, p),
    hover: (p) => hover(engine, p),
    drag: (p) => drag(engine, p),
    uploadFile: (p) => uploadFile(engine, p),
    waitFor: (p) => waitFor(engine, p),
    screenshot: (p, ctx) => screenshot(engine, p, screenMaskOf(ctx)),
    extract: (p) => extract(engine, p),
    setValue: (p) => setValue(engine, p),
    selectText: (p) => selectText(engine, p),
    openTab: (p) => engine.state.guard(async () => ({ tab: await tabSet().open(p.url) })),
    switchTab: (p) => engine.state.guard(async () => ({ tab: await tabSet().switch(p.tabId) })),
    closeTab: (p) => engine.state.guard(() => tabSet().close(p.tabId)),
    listTabs: () => engine.state.guard(() => tabSet().list()),
  };
}
