/**
 * The content script of an agent's tab, injected by the panel with `chrome.scripting` into
 * the tabs the agent owns (never declared for every page): draws the mask and the highlight.
 * The DOM fallback's agent (`dom-agent.js`) is injected into the same isolated world when the
 * debugger cannot attach. Injecting twice is harmless.
 */
import { isContentMessage } from "../messages.js";
import { Mask } from "./mask.js";

const installed = globalThis as { __batonContent?: Mask };
if (!installed.__batonContent) {
  const mask = new Mask(document);
  installed.__batonContent = mask;
  chrome.runtime.onMessage.addListener((message: unknown, _sender, reply: (r: unknown) => void) => {
    if (!isContentMessage(message)) return false;
    if (message.kind === "mask") mask.set(message.state);
    else mask.highlight(message.box, message.label);
    // Answered once applied, so the panel knows the mask lets its input through.
    reply({ ok: true, state: mask.state });
    return false;
  });
}
