import type { MaskState, ViewportBox } from "../messages.js";

/** The styles of the mask's closed shadow root. */
const css = `
:host { all: initial; }
.veil { position: fixed; inset: 0; pointer-events: none; opacity: 0;
  box-shadow: inset 0 0 0 3px rgba(99, 102, 241, .85), inset 0 0 48px rgba(99, 102, 241, .28); }
.veil.on { opacity: 1; }
.veil.block { pointer-events: auto; cursor: not-allowed; background: rgba(15, 23, 42, .025); }
.pill { position: fixed; left: 50%; bottom: 18px; transform: translateX(-50%); display: flex; align-items: center; gap: 8px;
  padding: 7px 14px 7px 11px; border-radius: 999px; background: rgba(17, 24, 39, .92); color: #f9fafb;
  font: 500 12.5px/1.3 system-ui, -apple-system, "Segoe UI", sans-serif; box-shadow: 0 6px 24px rgba(0, 0, 0, .25);
  max-width: min(560px, calc(100vw - 40px)); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.pill[hidden] { display: none; }
/* While the agent acts nothing of the mask animates: the engine reuses a snapshot only when no animation runs. */
.pill.acting .dot { animation-play-state: paused; }
.dot { width: 8px; height: 8px; border-radius: 50%; background: #818cf8; flex: none; animation: pulse 1.2s ease-in-out infinite; }
@keyframes pulse { 0%, 100% { opacity: .35; } 50% { opacity: 1; } }
.hint { color: #9ca3af; }

.hl { position: fixed; border: 2px solid #6366f1; border-radius: 6px; background: rgba(99, 102, 241, .12);
  box-shadow: 0 0 0 4px rgba(99, 102, 241, .18); pointer-events: none; }
.hl-label { position: absolute; left: -2px; bottom: calc(100% + 4px); padding: 2px 7px; border-radius: 5px; background: #4f46e5;
  color: #fff; font: 600 11px/1.4 system-ui, sans-serif; white-space: nowrap; max-width: 320px; overflow: hidden; text-overflow: ellipsis; }
`;

/** Events a user makes that the mask swallows while the agent is thinking. */
const userInput = ["keydown", "keypress", "keyup", "beforeinput", "paste", "drop"] as const;

/**
 * The mask over an agent's tab: a glowing frame and a "Baton is working" pill, in a closed
 * shadow root marked aria-hidden, so neither the page's scripts nor the engine's snapshots see
 * its contents. While the agent thinks it takes the user's clicks, wheel and keys; while the
 * agent acts it lets everything through, so the engine's hit tests and input events reach the
 * page. Only the shadow root's contents change with the state (never the host's attributes),
 * so switching states is no DOM mutation the engine's settle would wait for.
 */
export class Mask {
  #host: HTMLElement | undefined;
  #veil: HTMLElement | undefined;
  #pill: HTMLElement | undefined;
  #layer: HTMLElement | undefined;
  #state: MaskState = "off";
  #hlTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly doc: Document) {
    const swallow = (e: Event) => {
      if (this.#state !== "watching" || !e.isTrusted) return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    for (const type of userInput) doc.defaultView?.addEventListener(type, swallow, { capture: true });
  }

  /** The current state. */
  get state(): MaskState {
    return this.#state;
  }

  /** Shows, hides or relaxes the mask; `label` is what the pill says. */
  set(state: MaskState, label?: string): void {
    this.#state = state;
    // The outline belongs to the call that drew it.
    if (state !== "acting") this.#clearHighlight();
    if (state === "off") {
      if (this.#veil) this.#veil.className = "veil";
      if (this.#pill) this.#pill.hidden = true;
      return;
    }
    this.#ensure();
    if (this.#veil) this.#veil.className = state === "watching" ? "veil on block" : "veil on";
    if (this.#pill) {
      this.#pill.hidden = false;
      this.#pill.classList.toggle("acting", state === "acting");
    }
  }

  /** Outlines the element being acted on for a moment. */
  highlight(box: ViewportBox, label: string): void {
    this.#ensure();
    const layer = this.#layer;
    if (!layer) return;
    layer.replaceChildren();
    const hl = this.doc.createElement("div");
    hl.className = "hl";
    Object.assign(hl.style, { left: `${box.x - 3}px`, top: `${box.y - 3}px`, width: `${box.width + 6}px`, height: `${box.height + 6}px` });
    const tag = this.doc.createElement("div");
    tag.className = "hl-label";
    tag.textContent = label;
    hl.append(tag);
    layer.append(hl);
    clearTimeout(this.#hlTimer);
    // No fade: a running transition would keep the engine from reusing its last snapshot.
    this.#hlTimer = setTimeout(() => hl.remove(), 1500);
  }

  #clearHighlight(): void {
    clearTimeout(this.#hlTimer);
    this.#layer?.replaceChildren();
  }

  #ensure(): void {
    if (this.#host?.isConnected) return;
    const host = this.doc.createElement("baton-mask");
    host.setAttribute("aria-hidden", "true");
    host.style.cssText = "position:fixed;inset:0;z-index:2147483647;pointer-events:none;display:block;";
    const root = host.attachShadow({ mode: "closed" });
    const style = this.doc.createElement("style");
    style.textContent = css;
    const veil = this.doc.createElement("div");
    veil.className = "veil";
    // The page must not scroll under a thinking agent either.
    veil.addEventListener("wheel", (e) => e.preventDefault(), { passive: false });
    const pill = this.doc.createElement("div");
    pill.className = "pill";
    pill.hidden = true;
    const dot = this.doc.createElement("span");
    dot.className = "dot";
    const label = this.doc.createElement("span");
    label.textContent = "Baton is working";
    const hint = this.doc.createElement("span");
    hint.className = "hint";
    hint.textContent = "· Stop it from the side panel";
    pill.append(dot, label, hint);
    const layer = this.doc.createElement("div");
    root.append(style, veil, layer, pill);
    (this.doc.documentElement ?? this.doc.body).append(host);
    this.#host = host;
    this.#veil = veil;
    this.#pill = pill;
    this.#layer = layer;
  }
}
