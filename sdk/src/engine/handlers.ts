import type { ClientToolCase, ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { screenMaskOf, typingOrigins } from "../contract/index.js";
import { drag, click, hover } from "./actions/pointer.js";
import { pressKeys, typeText } from "./actions/keyboard.js";
import { scroll, selectOption, uploadFile } from "./actions/forms.js";
import { goBack, navigate, waitFor } from "./actions/navigation.js";
import { extract, screenshot } from "./actions/read.js";
import { selectText } from "./actions/select-text.js";
import { setValue } from "./actions/set-value.js";
import type { Engine } from "./engine.js";
import { TabSet } from "./actions/tabs.js";

/** The client tools the engine implements: all of them except ask_user, which is the app's. */
export type EngineToolCase = Exclude<ClientToolCase, "askUser">;

/** Handlers for every engine tool, typed from the proto: a tool without a handler fails to compile. */
export type EngineHandlers<Ctx = void> = Pick<ClientToolHandlers<Ctx>, EngineToolCase>;

/**
 * The engine as tool handlers, ready for `dispatchToolCall(toolCatalog, call, handlers, ctx)`.
 * Spread them with an `askUser` handler to get a full `ClientToolHandlers`.
 */
export function engineHandlers<Ctx = void>(engine: Engine): EngineHandlers<Ctx> {
  let tabs: TabSet | undefined;
  const tabSet = (): TabSet => {
    tabs ??= new TabSet(engine);
    return tabs;
  };
  return {
    navigate: (p) => navigate(engine, p),
    goBack: (p) => goBack(engine, p),
    // The secrets layer's mask rides on the context (`MaskScope`): secrets are painted over in every screenshot.
    takeSnapshot: (p, ctx) =>
      engine.guard(() =>
        engine.snapshot({
          screenMask: screenMaskOf(ctx),
          offset: p.offset,
          includeScreenshot: p.includeScreenshot,
          includeOffscreen: p.includeOffscreen,
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
    openTab: (p) => engine.guard(async () => ({ tab: await tabSet().open(p.url) })),
    switchTab: (p) => engine.guard(async () => ({ tab: await tabSet().switch(p.tabId) })),
    closeTab: (p) => engine.guard(() => tabSet().close(p.tabId)),
    listTabs: () => engine.guard(() => tabSet().list()),
  };
}
