/**
 * The DOM fallback's in-page agent. It runs in the page only, as part of the bundle
 * `gen/in-page-source.ts` (entry `dom-agent-entry.ts`); Node imports its types.
 */
import { key, mouse, setValue } from "./dom-events.js";
import { describe, hitAt, inside, related } from "./dom-hit.js";
import { nameOf, shownText, statesOf, valueOf } from "./dom-names.js";
import { headingLevel, roleOf } from "./dom-roles.js";
import { regionLook, targetsOf, view } from "./dom-targets.js";
import { rules } from "./element-rules.js";
import { deepestActive } from "./element-state.js";
import { type AgentBox, html, isTag, ownerRect, rectOf, squeeze, styleOf } from "./elements.js";
import { documentText, extractContent } from "./page-content.js";
import { selectTextInPage } from "./select-text.js";
import { setInputInPage, valueTargetInPage } from "./set-value.js";
import { clipOf, controlHidden, onHover, readHoverRoots, visibleStyle } from "./visibility.js";

/** One item the agent's snapshot reports, in document order. */
export interface AgentItem {
  k: "ref" | "text" | "ctx" | "frame" | "xframe";
  depth: number;
  frame: number;
  id?: number;
  role?: string;
  name?: string;
  value?: string;
  states?: string[];
  rect?: AgentBox;
  /** What the element's clipping ancestors leave visible (client coordinates), when any clips it. */
  clip?: AgentBox;
  /** A heading's level (1–6), from its tag or `aria-level`. */
  level?: number;
  child?: number;
  src?: string;
  owner?: AgentBox;
  ownerId?: number;
}

/** The agent's snapshot of its document and the same-origin frames inside it. */
export interface AgentSnapshot {
  token: string;
  url: string;
  title: string;
  items: AgentItem[];
  frames: number;
  scroll: [number, number];
  size: [number, number];
  page: [number, number];
}

/**
 * The DOM fallback's in-page agent (runs in the page; see `domAgentSource`). It defines
 * `globalThis.__batonDomAgent(op, arg)`; every later call goes through that one function.
 * It reports frame-local client rectangles only; every conversion to top-level viewport
 * coordinates happens in the engine's coordinates module.
 */
export function installDomAgent(): boolean {
  type Arg = Record<string, unknown>;
  const host = globalThis as { __batonDomAgent?: (op: string, arg: unknown) => unknown };
  if (host.__batonDomAgent) return true;
  const S = {
    token: Math.random().toString(36).slice(2) + Date.now().toString(36),
    next: 1,
    byId: new Map<number, WeakRef<Element>>(),
    ids: new WeakMap<Element, number>(),
    frames: [] as { doc: Document; owner: Element | null }[],
    navigating: "",
  };
  // A navigation this document started (link click, form submit, script): the engine then
  // waits for the next document instead of reading this one as the result.
  const nav = (globalThis as { navigation?: EventTarget }).navigation;
  if (nav) {
    nav.addEventListener("navigate", (e) => {
      const d = (e as Event & { hashChange?: boolean; destination?: { url: string; sameDocument: boolean } });
      if (!d.hashChange && d.destination && !d.destination.sameDocument) S.navigating = d.destination.url;
    });
    for (const t of ["navigatesuccess", "navigateerror"]) nav.addEventListener(t, () => {
      S.navigating = "";
    });
  }
  addEventListener("beforeunload", () => {
    S.navigating = S.navigating || "unload";
  });
  const idOf = (el: Element): number => {
    let id = S.ids.get(el);
    if (!id) {
      id = S.next++;
      S.ids.set(el, id);
      S.byId.set(id, new WeakRef(el));
    }
    return id;
  };
  const byId = (id: unknown): Element | null => {
    const el = S.byId.get(id as number)?.deref();
    return el?.isConnected ? el : null;
  };
  const R = rules;
  const snapshot = (): AgentSnapshot => {
    S.frames = [];
    readHoverRoots();
    const items: AgentItem[] = [];
    const active = deepestActive();
    const walkDoc = (doc: Document, frame: number, depth: number): void => {
      const info = targetsOf(doc);
      const visit = (node: Node, depth: number, inAction: boolean, container: string): void => {
        for (const child of node.childNodes) {
          if (child.nodeType === 3) {
            const t = squeeze(child.textContent);
            const parent = child.parentElement;
            // Inside a ref, text its name already says, and symbols (its icon), are left out.
            const echo = container.includes(t) || (inAction && R.symbolOnly(t));
            if (t && !echo && parent && visibleStyle(parent) && styleOf(parent).fontSize !== "0px" && !R.isIconFont({ attr: (name) => parent.getAttribute(name) })) {
              const r = parent.getBoundingClientRect();
              const clip = clipOf(parent);
              if (r.width > 0 && r.height > 0) items.push({ k: "text", depth, frame, name: t.slice(0, 200), rect: [r.x, r.y, r.width, r.height], ...(clip ? { clip } : {}) });
            }
            continue;
          }
          if (child.nodeType !== 1) continue;
          const el = child as Element;
          if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"].includes(el.tagName)) continue;
          if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: false })) continue;
          const visible = visibleStyle(el);
          const rect = rectOf(el);
          let childDepth = depth;
          let childInAction = inAction;
          let childContainer = container;
          if (el.localName === "iframe" || el.localName === "frame") {
            const frameEl = el as HTMLIFrameElement;
            if (!visible || rect[2] <= 0 || rect[3] <= 0) continue;
            let sub: Document | null = null;
            try {
              sub = frameEl.contentDocument;
            } catch {
              sub = null;
            }
            if (sub?.documentElement) {
              const index = S.frames.length;
              S.frames.push({ doc: sub, owner: el });
              items.push({ k: "frame", depth, frame, child: index, name: squeeze(el.getAttribute("title")), src: sub.URL, owner: ownerRect(el), ownerId: idOf(el) });
              walkDoc(sub, index, depth + 1);
            } else {
              items.push({ k: "xframe", depth, frame, src: frameEl.src || "", rect });
            }
            continue;
          }
          const known = info.get(el);
          // A label around a control that is not rendered (a custom toggle) stands for it, as in the CDP engine.
          const standIn = isTag(el, "label") && !el.hasAttribute("role") && el.control && controlHidden(el.control) ? el.control : null;
          const standInRole = standIn ? roleOf(standIn) : "";
          const domRole = standIn ? (standInRole === "checkbox" || standInRole === "radio" ? standInRole : "label") : roleOf(el);
          const target = known?.target === true;
          const zero = rect[2] <= 0 || rect[3] <= 0;
          if (visible && !zero) {
            if (target) {
              const signs = known?.signs ?? 0;
              const region = !(signs & (R.signs.NATIVE | R.signs.ROLE));
              let role = domRole;
              let name: string;
              let context = "";
              let value = "";
              let states: string[];
              if (region) {
                const labelled = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby");
                const text = shownText(el, 80);
                const look = regionLook(el, signs, info, text !== "");
                role = look.role;
                name = labelled ? nameOf(el, "") : R.regionName(text);
                context = text;
                value = look.value;
                states = look.states;
              } else {
                role = domRole || (signs & R.signs.DRAG ? "listitem" : "generic");
                name = nameOf(el, role);
                value = valueOf(el, role);
                states = statesOf(standIn || el, role, active);
              }
              if (R.nameFromContent(role)) {
                const v = view(el);
                if (name && R.isLigatureName(v, name)) {
                  name = name.replace(/[-_]+/g, " ").trim();
                } else if (!name || R.symbolOnly(name)) {
                  // The shared order of names; the text before the control is the CDP engine's alone.
                  const fill = (): string => (el.children.length === 0 && !squeeze(el.textContent) ? R.colourName(styleOf(el).backgroundColor) : "");
                  const named = R.controlName(name, R.derivedName(v), () => "", fill);
                  name = named.name;
                  if (named.guess) states = [...states, "guess"];
                }
              }
              const clip = clipOf(el);
              if (onHover(el) && !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) states = [...states, "on-hover"];
              items.push({ k: "ref", depth, frame, id: idOf(el), role, name, value, states, rect, ...(clip ? { clip } : {}) });
              childDepth = depth + 1;
              childInAction = true;
              childContainer = `${container} ${squeeze(context || name)} ${squeeze(value)}`;
            } else if (R.contextRoles.has(domRole) || (domRole && el.getAttribute("role") === domRole && (domRole === "dialog" || domRole === "alertdialog"))) {
              const level = domRole === "heading" ? headingLevel(el) : undefined;
              const ctxName = nameOf(el, domRole);
              // An image inside a ref says nothing its name does not: an icon.
              if (!(inAction && domRole === "img" && (!ctxName || container.includes(ctxName)))) {
                items.push({ k: "ctx", depth, frame, role: domRole, name: ctxName, rect, ...(level ? { level } : {}) });
                if (domRole === "dialog" || domRole === "alertdialog") childDepth = depth + 1;
                else if (domRole === "heading" || domRole === "img") childContainer = `${container} ${ctxName}`;
              }
            }
          } else if (target && !visible) {
            // An invisible control hides its text too (the CDP engine does the same).
            continue;
          }
          if (domRole === "combobox" && el.tagName === "SELECT") continue;
          if (el.shadowRoot) visit(el.shadowRoot, childDepth, childInAction, childContainer);
          visit(el, childDepth, childInAction, childContainer);
        }
      };
      if (doc.body) visit(doc.body, depth, false, "");
    };
    S.frames.push({ doc: document, owner: null });
    walkDoc(document, 0, 0);
    return {
      token: S.token,
      url: location.href,
      title: document.title,
      items,
      frames: S.frames.length,
      scroll: [scrollX, scrollY],
      size: [innerWidth, innerHeight],
      page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    };
  };
  type HitAsk = { id: number; chain: { frame: number; x: number; y: number }[] };
  const hits = (arg: HitAsk[]): { ok: boolean; gone?: boolean; by?: string }[] =>
    arg.map((c) => {
      const el = byId(c.id);
      if (!el) return { ok: false, gone: true };
      for (let i = 0; i < c.chain.length; i++) {
        const lvl = c.chain[i]!;
        const f = S.frames[lvl.frame];
        if (!f) return { ok: true };
        const hit = hitAt(f.doc, lvl.x, lvl.y);
        if (i < c.chain.length - 1) {
          const next = S.frames[c.chain[i + 1]!.frame];
          if (hit && next?.owner && hit !== next.owner && !related(hit, next.owner)) return { ok: false, by: describe(hit) };
        } else if (!related(hit, el)) return { ok: false, by: describe(hit) };
      }
      return { ok: true };
    });
  const frameChain = (el: Element): number[] | null => {
    const chain: number[] = [];
    let doc = el.ownerDocument;
    for (let guard = 0; guard < 20; guard++) {
      const index = S.frames.findIndex((f) => f.doc === doc);
      if (index < 0) return null;
      chain.unshift(index);
      const owner = S.frames[index]!.owner;
      if (!owner) break;
      doc = owner.ownerDocument;
    }
    return chain;
  };
  const locate = (id: unknown): { gone: true } | { rect: AgentBox; visible: boolean; chain: number[]; owners: (AgentBox | null)[] } => {
    const el = byId(id);
    if (!el) return { gone: true };
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const chain = frameChain(el);
    if (!chain) return { gone: true };
    return { rect: rectOf(el), visible: visibleStyle(el), chain, owners: chain.map((f) => (S.frames[f]?.owner ? ownerRect(S.frames[f].owner) : null)) };
  };
  const pointAt = (el: Element, frame: number, x: number, y: number): Element => {
    const f = S.frames[frame];
    const hit = f ? hitAt(f.doc, x, y) : null;
    return hit && inside(hit, el) ? hit : el;
  };
  const ops: Record<string, (a: Arg) => unknown> = {
    ping: (a) => {
      if (a?.reset) S.navigating = "";
      return { token: S.token, url: location.href, title: document.title, ready: document.readyState, navigating: S.navigating || "" };
    },
    snapshot,
    hits: (a) => hits(a as unknown as HitAsk[]),
    locate: (a) => locate(a),
    alive: (a) => !!byId(a),
    // Positions of elements in the top document's getElementsByTagName("*"), -1 elsewhere
    // (for tests that compare refs with elements found another way).
    lightIndex: (a) => {
      const all = document.getElementsByTagName("*");
      return (a as unknown as number[]).map((id) => {
        const el = byId(id);
        return el ? Array.prototype.indexOf.call(all, el) : -1;
      });
    },
    focused: () => {
      const a = deepestActive();
      return a && a !== document.body ? (S.ids.get(a) ?? 0) : 0;
    },
    click: (a) => {
      const el = byId(a.id);
      if (!el) return { gone: true };
      const x = a.x as number;
      const y = a.y as number;
      const button = (a.button as number) || 0;
      const t = pointAt(el, a.frame as number, x, y);
      const opts: MouseEventInit = { button, buttons: 1, detail: 1, ctrlKey: !!a.ctrl, shiftKey: !!a.shift, altKey: !!a.alt, metaKey: !!a.meta };
      mouse(t, "pointerover", x, y);
      mouse(t, "mouseover", x, y);
      mouse(t, "pointermove", x, y);
      mouse(t, "mousemove", x, y);
      for (let i = 1; i <= ((a.count as number) || 1); i++) {
        mouse(t, "pointerdown", x, y, opts);
        const go = mouse(t, "mousedown", x, y, { ...opts, detail: i });
        const h = html(el);
        if (go && h && (h.tabIndex >= 0 || h.isContentEditable)) h.focus({ preventScroll: true });
        mouse(t, "pointerup", x, y, { ...opts, buttons: 0 });
        mouse(t, "mouseup", x, y, { ...opts, buttons: 0, detail: i });
        if (button === 0) mouse(t, "click", x, y, { ...opts, buttons: 0, detail: i });
        else if (button === 2) mouse(t, "contextmenu", x, y, { ...opts, buttons: 0 });
        if (i === 2) mouse(t, "dblclick", x, y, { ...opts, buttons: 0, detail: 2 });
      }
      return { ok: true };
    },
    hover: (a) => {
      const el = byId(a.id);
      if (!el) return { gone: true };
      const t = pointAt(el, a.frame as number, a.x as number, a.y as number);
      for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(t, type, a.x as number, a.y as number);
      return { ok: true };
    },
    type: (a) => {
      const el = byId(a.id);
      if (!el) return { gone: true };
      const text = a.text as string;
      const field = el as Partial<HTMLInputElement>;
      if (field.disabled || field.readOnly) return { error: field.disabled ? "disabled" : "read-only" };
      html(el)?.focus({ preventScroll: true });
      const input = isTag(el, "textarea") || (isTag(el, "input") && !["checkbox", "radio", "file", "button", "submit", "reset", "image", "range", "color"].includes(el.type));
      if (input) {
        setValue(el, (a.clear ? "" : el.value) + text);
        el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: text }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      } else if (html(el)?.isContentEditable) {
        const doc = el.ownerDocument;
        const sel = doc.getSelection();
        const r = doc.createRange();
        r.selectNodeContents(el);
        if (!a.clear) r.collapse(false);
        sel?.removeAllRanges();
        sel?.addRange(r);
        doc.execCommand("insertText", false, text);
      } else return { error: "not-text" };
      if (a.enter) {
        const go = key(el, "keydown", "Enter");
        key(el, "keypress", "Enter");
        key(el, "keyup", "Enter");
        if (go && isTag(el, "input") && el.form) el.form.requestSubmit();
      }
      return { value: isTag(el, "input") || isTag(el, "textarea") ? el.value : (html(el)?.innerText ?? "") };
    },
    keys: (a) => {
      let t = a.id ? byId(a.id) : deepestActive();
      if (a.id && !t) return { gone: true };
      // A label standing for a hidden control (a custom switch) hands the keys to the control.
      if (t && isTag(t, "label") && t.control) t = t.control;
      if (a.id) html(t!)?.focus({ preventScroll: true });
      t = t || document.body;
      for (const chord of a.keys as string[]) {
        const parts = chord === "+" ? ["+"] : chord.split("+").map((p) => (p !== "" && p.trim() === "" ? " " : p.trim()));
        const named = parts[parts.length - 1] ?? "";
        const k = named === "Space" ? " " : named;
        // Space activates a checkbox, radio or button it is pressed on (on key up, as browsers do).
        let activate = false;
        const mods = new Set(parts.slice(0, -1));
        const init: KeyboardEventInit = { key: k, bubbles: true, cancelable: true, composed: true, ctrlKey: mods.has("Control"), shiftKey: mods.has("Shift"), altKey: mods.has("Alt"), metaKey: mods.has("Meta") };
        const go = t.dispatchEvent(new KeyboardEvent("keydown", init));
        if (go) {
          const doc = t.ownerDocument || document;
          const field = isTag(t, "input") || isTag(t, "textarea") ? t : null;
          if ((init.ctrlKey || init.metaKey) && k.toLowerCase() === "a") {
            if (field) field.select();
            else doc.execCommand("selectAll");
          } else if (k === "Backspace") doc.execCommand("delete");
          else if (k === "Delete") doc.execCommand("forwardDelete");
          else if (k === " " && (isTag(t, "button") || (isTag(t, "input") && (t.type === "checkbox" || t.type === "radio")))) activate = true;
          else if (k.length === 1 && !init.ctrlKey && !init.metaKey && !init.altKey) doc.execCommand("insertText", false, k);
          else if (k === "Enter" && isTag(t, "input") && t.form) t.form.requestSubmit();
          else if (k === "End" && field) field.setSelectionRange(field.value.length, field.value.length);
          else if (k === "Home" && field) field.setSelectionRange(0, 0);
        }
        t.dispatchEvent(new KeyboardEvent("keyup", init));
        if (activate) html(t)?.click();
      }
      return { ok: true };
    },
    select: (a) => {
      const el = byId(a.id);
      if (!el) return { gone: true };
      if (!isTag(el, "select")) return { error: "not-select" };
      if (el.disabled) return { error: "disabled" };
      const opts = [...el.options];
      const norm = (s: string): string => squeeze(s).toLowerCase();
      const pick: HTMLOptionElement[] = [];
      for (const w of a.values as string[]) {
        const o = opts.find((o) => o.label === w || o.value === w) ?? opts.find((o) => norm(o.label) === norm(w) || norm(o.value) === norm(w));
        if (!o) return { error: "missing", available: opts.map((o) => o.label).slice(0, 50) };
        pick.push(o);
      }
      if (!el.multiple && pick.length > 1) return { error: "single" };
      for (const o of opts) o.selected = pick.includes(o);
      el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
      return { selected: [...el.selectedOptions].map((o) => o.label) };
    },
    drag: (a) => {
      const from = byId(a.from);
      const to = byId(a.to);
      if (!from || !to) return { gone: true };
      const [fx, fy, tx, ty] = [a.fx, a.fy, a.tx, a.ty] as number[];
      const dt = new DataTransfer();
      const drag = (t: Element, type: string, x: number, y: number): boolean => t.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt }));
      mouse(from, "pointerdown", fx!, fy!, { buttons: 1 });
      mouse(from, "mousedown", fx!, fy!, { buttons: 1 });
      const native = from.getAttribute("draggable") === "true" || from.closest("[draggable=true]");
      if (native) {
        drag(from, "dragstart", fx!, fy!);
        drag(to, "dragenter", tx!, ty!);
        drag(to, "dragover", tx!, ty!);
        drag(to, "drop", tx!, ty!);
        drag(from, "dragend", tx!, ty!);
      } else {
        mouse(to, "pointermove", tx!, ty!, { buttons: 1 });
        mouse(to, "mousemove", tx!, ty!, { buttons: 1 });
      }
      mouse(to, "pointerup", tx!, ty!);
      mouse(to, "mouseup", tx!, ty!);
      return { ok: true };
    },
    scroll: (a) => {
      let el: Element | null = document.scrollingElement ?? document.documentElement;
      if (a.id) {
        el = byId(a.id);
        if (!el) return { gone: true };
      }
      if (a.toId) {
        const t = byId(a.toId);
        if (!t) return { gone: true };
        const b = t.getBoundingClientRect();
        t.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
        const c = t.getBoundingClientRect();
        return { moved: b.x !== c.x || b.y !== c.y };
      }
      const before = [el.scrollLeft, el.scrollTop];
      const sign = a.sign as number;
      const amount = (a.pixels as number) || Math.round((a.vertical ? el.clientHeight || innerHeight : el.clientWidth || innerWidth) * 0.8);
      const d = a.toEdge ? 1e9 * sign : amount * sign;
      el.scrollBy({ left: a.vertical ? 0 : d, top: a.vertical ? d : 0, behavior: "instant" });
      return { moved: before[0] !== el.scrollLeft || before[1] !== el.scrollTop };
    },
    // CSS-drawn text (`::after { content }`) counts for text waits, as in the CDP engine.
    text: () => documentText(true),
    navigate: (url) => {
      location.assign(url as unknown as string);
      return { ok: true };
    },
    back: () => {
      const can = history.length > 1;
      history.back();
      return { ok: can };
    },
    quiet: (a) =>
      new Promise<boolean>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const cap = setTimeout(() => {
          mo.disconnect();
          resolve(false);
        }, a.cap as number);
        const done = (): void => {
          mo.disconnect();
          clearTimeout(cap);
          resolve(true);
        };
        const mo = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, a.window as number);
        });
        mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            timer = setTimeout(done, a.window as number);
          }),
        );
      }),
    extract: (a) => extractContent.call(a.id ? byId(a.id) : document, a.format as string),
    valueTarget: (a) => {
      const el = byId(a.id);
      return el ? valueTargetInPage.call(el) : { gone: true };
    },
    setInput: (a) => {
      const el = byId(a.id);
      return el && isTag(el, "input") ? setInputInPage.call(el, a.value as string, (a.percent as number | null) ?? null) : { gone: true };
    },
    selectText: (a) => selectTextInPage.call(a.id ? byId(a.id) : undefined, a.text as string, a.occurrence as number),
  };
  host.__batonDomAgent = (op, arg) => {
    const f = ops[op];
    if (!f) throw new Error(`unknown op ${op}`);
    return f(arg as Arg);
  };
  return true;
}

