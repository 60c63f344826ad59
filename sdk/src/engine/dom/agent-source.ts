import { extractFunction } from "../read/page-scripts.js";

/**
 * The DOM fallback's in-page agent, as source text. Evaluated once per document in an isolated
 * world (a content script's, or a CDP isolated world), it defines
 * `globalThis.__batonDomAgent(op, arg)`; every later call goes through that one function, so a
 * runner never needs `eval` (MV3 forbids it): inject this file, then call the global.
 *
 * It reports frame-local client rectangles only; every conversion to top-level viewport
 * coordinates happens in the engine's coordinates module.
 */
const agentTemplate = String.raw`(() => {
if (globalThis.__batonDomAgent) return true;
const S = { token: Math.random().toString(36).slice(2) + Date.now().toString(36), next: 1, byId: new Map(), ids: new WeakMap(), frames: [] };
// A navigation this document started (link click, form submit, script): the engine then waits
// for the next document instead of reading this one as the result.
if (globalThis.navigation) navigation.addEventListener("navigate", (e) => { if (!e.hashChange && e.destination && !e.destination.sameDocument) S.navigating = e.destination.url; });
addEventListener("beforeunload", () => { S.navigating = S.navigating || "unload"; });
if (globalThis.navigation) for (const t of ["navigatesuccess", "navigateerror"]) navigation.addEventListener(t, () => { S.navigating = ""; });
const idOf = (el) => { let id = S.ids.get(el); if (!id) { id = S.next++; S.ids.set(el, id); S.byId.set(id, new WeakRef(el)); } return id; };
const byId = (id) => { const w = S.byId.get(id); const el = w && w.deref(); return el && el.isConnected ? el : null; };
const squeeze = (s) => (s || "").replace(/\s+/g, " ").trim();
const inputRoles = { checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox", submit: "button", button: "button", reset: "button", image: "button", file: "button", color: "button" };
const actionRoles = new Set(["button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider", "spinbutton", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "listbox"]);
const contextRoles = new Set(["heading", "img", "dialog", "alertdialog", "alert"]);
const isEditHost = (el) => el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
const roleOf = (el) => {
  const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0];
  if (explicit && explicit !== "presentation" && explicit !== "none" && explicit !== "generic") return explicit;
  const tag = el.tagName;
  if (tag === "A" || tag === "AREA") return el.hasAttribute("href") ? "link" : "";
  if (tag === "BUTTON" || tag === "SUMMARY") return "button";
  if (tag === "INPUT") { const t = (el.getAttribute("type") || "text").toLowerCase(); return t === "hidden" ? "" : (inputRoles[t] || "textbox"); }
  if (tag === "TEXTAREA") return "textbox";
  if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
  if (tag === "OPTION") return "option";
  if (/^H[1-6]$/.test(tag)) return "heading";
  if (tag === "IMG") return el.getAttribute("alt") ? "img" : "";
  if (tag === "DIALOG") return el.open ? "dialog" : "";
  if (tag === "LI") return "listitem";
  if (isEditHost(el)) return "textbox";
  return "";
};
const textSkipping = (node) => {
  let out = "";
  for (const c of node.childNodes) {
    if (c.nodeType === 3) out += c.textContent;
    else if (c.nodeType === 1 && !["INPUT", "SELECT", "TEXTAREA", "BUTTON", "SCRIPT", "STYLE"].includes(c.tagName)) out += " " + textSkipping(c);
  }
  return out;
};
const visibleText = (el) => squeeze(el.innerText !== undefined ? el.innerText : el.textContent);
const nameOf = (el, role) => {
  const lb = el.getAttribute("aria-labelledby");
  if (lb) {
    const root = el.getRootNode();
    const t = squeeze(lb.split(/\s+/).map((id) => (root.getElementById ? root.getElementById(id) : null) || el.ownerDocument.getElementById(id)).filter(Boolean).map((n) => n.textContent).join(" "));
    if (t) return t;
  }
  const al = squeeze(el.getAttribute("aria-label"));
  if (al) return al;
  const tag = el.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
    const type = (el.getAttribute("type") || "").toLowerCase();
    if (type === "submit" || type === "button" || type === "reset") return el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
    const labels = el.labels ? squeeze([...el.labels].map(textSkipping).join(" ")) : "";
    if (labels) return labels;
    return squeeze(el.getAttribute("placeholder") || el.getAttribute("title") || "");
  }
  if (tag === "IMG") return squeeze(el.getAttribute("alt"));
  if (isEditHost(el)) return squeeze(el.getAttribute("title") || "");
  const fromContent = ["button", "link", "heading", "option", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem", "listitem", "checkbox", "radio", "switch", "label", ""];
  if (fromContent.includes(role)) return visibleText(el).slice(0, 200);
  return squeeze(el.getAttribute("title") || "");
};
const valueOf = (el, role) => {
  if (el.tagName === "SELECT") return el.multiple ? "" : squeeze(el.selectedOptions[0] ? el.selectedOptions[0].label : "");
  if (el.tagName === "INPUT") { const t = (el.type || "").toLowerCase(); if (t === "checkbox" || t === "radio" || t === "submit" || t === "button" || t === "reset" || t === "image") return ""; if (t === "file") return el.files && el.files.length ? [...el.files].map((f) => f.name).join(", ") : "No file chosen"; if (t === "password") return el.value ? "••••" : ""; return el.value; }
  if (el.tagName === "TEXTAREA") return el.value;
  if (role === "textbox" && el.isContentEditable) return visibleText(el);
  return "";
};
const statesOf = (el, role, active) => {
  const out = [];
  const aria = (n) => el.getAttribute(n);
  if (role === "checkbox" || role === "radio" || role === "switch") {
    const c = el.tagName === "INPUT" ? (el.indeterminate ? "mixed" : String(el.checked)) : aria("aria-checked");
    out.push(c === "true" ? "checked" : c === "mixed" ? "mixed" : "unchecked");
  }
  if (aria("aria-pressed") === "true") out.push("pressed");
  if (el.disabled || aria("aria-disabled") === "true") out.push("disabled");
  if (aria("aria-expanded") === "true") out.push("expanded"); else if (aria("aria-expanded") === "false" || role === "combobox") out.push("collapsed");
  if (el.selected === true || aria("aria-selected") === "true") out.push("selected");
  if (el === active) out.push("focused");
  if (el.readOnly === true) out.push("readonly");
  if (el.required === true) out.push("required");
  return out;
};
const deepActive = () => { let a = document.activeElement; for (let i = 0; i < 50 && a; i++) { if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; } if (a.tagName === "IFRAME") { try { if (a.contentDocument && a.contentDocument.activeElement) { a = a.contentDocument.activeElement; continue; } } catch (e) {} } break; } return a; };
const rectOf = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && (!el.checkVisibility || el.checkVisibility({ visibilityProperty: true })); };
const ownerRect = (iframe) => {
  const r = iframe.getBoundingClientRect(); const s = getComputedStyle(iframe);
  const l = iframe.clientLeft + parseFloat(s.paddingLeft || "0"), t = iframe.clientTop + parseFloat(s.paddingTop || "0");
  return [r.x + l, r.y + t, iframe.clientWidth - parseFloat(s.paddingLeft || "0") - parseFloat(s.paddingRight || "0"), iframe.clientHeight - parseFloat(s.paddingTop || "0") - parseFloat(s.paddingBottom || "0")];
};
const clickableByStyle = (el, win) => {
  const cs = win.getComputedStyle(el);
  if (cs.cursor !== "pointer") return false;
  const p = el.parentElement;
  return !p || win.getComputedStyle(p).cursor !== "pointer";
};
const snapshot = () => {
  S.frames = [];
  const items = [];
  const active = deepActive();
  const walkDoc = (doc, frame, depth) => {
    const win = doc.defaultView;
    const visit = (node, depth, inAction) => {
      for (const child of node.childNodes) {
        if (child.nodeType === 3) {
          const t = squeeze(child.textContent);
          if (t && !inAction && child.parentElement && (!child.parentElement.checkVisibility || child.parentElement.checkVisibility({ visibilityProperty: true }))) {
            const r = child.parentElement.getBoundingClientRect();
            if (r.width > 0 && r.height > 0) items.push({ k: "text", depth, frame, name: t.slice(0, 200), rect: [r.x, r.y, r.width, r.height] });
          }
          continue;
        }
        if (child.nodeType !== 1) continue;
        const el = child;
        if (["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"].includes(el.tagName)) continue;
        if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: false })) continue;
        const visible = !el.checkVisibility || el.checkVisibility({ visibilityProperty: true });
        const rect = rectOf(el);
        let childDepth = depth, childInAction = inAction;
        if (el.tagName === "IFRAME" || el.tagName === "FRAME") {
          if (!visible || rect[2] <= 0 || rect[3] <= 0) continue;
          let sub = null;
          try { sub = el.contentDocument; } catch (e) { sub = null; }
          if (sub && sub.documentElement) {
            const index = S.frames.length;
            S.frames.push({ doc: sub, owner: el });
            items.push({ k: "frame", depth, frame, child: index, name: squeeze(el.getAttribute("title")), src: sub.URL, owner: ownerRect(el), ownerId: idOf(el) });
            walkDoc(sub, index, depth + 1);
          } else {
            items.push({ k: "xframe", depth, frame, src: el.src || "", rect });
          }
          continue;
        }
        // A label around a control that is not rendered (a custom toggle) stands for it, as in the CDP engine.
        const standIn = el.tagName === "LABEL" && !el.hasAttribute("role") && el.control && !shown(el.control) ? el.control : null;
        const standInRole = standIn ? roleOf(standIn) : "";
        const role = standIn ? (standInRole === "checkbox" || standInRole === "radio" ? standInRole : "label") : roleOf(el);
        const draggable = el.getAttribute("draggable") === "true";
        const tabbable = el.hasAttribute("tabindex") && el.tabIndex >= 0 && role !== "";
        let actionable = standIn !== null || actionRoles.has(role) || draggable || tabbable || el.hasAttribute("onclick") || isEditHost(el);
        if (!actionable && !inAction && el.tagName !== "BODY" && el.tagName !== "HTML" && clickableByStyle(el, win)) actionable = true;
        if (visible && rect[2] > 0 && rect[3] > 0 && !inAction) {
          if (actionable) {
            const name = nameOf(el, role);
            items.push({ k: "ref", depth, frame, id: idOf(el), role: role || (draggable ? "listitem" : "generic"), name, value: valueOf(el, role), states: statesOf(standIn || el, role, active), rect });
            childDepth = depth + 1; childInAction = true;
          } else if (contextRoles.has(role) || (role && el.getAttribute("role") === role && (role === "dialog" || role === "alertdialog"))) {
            const level = /^H([1-6])$/.exec(el.tagName);
            items.push({ k: "ctx", depth, frame, role: role === "heading" && level ? "heading[" + level[1] + "]" : role, name: nameOf(el, role), rect });
            if (role === "dialog" || role === "alertdialog") childDepth = depth + 1; else childInAction = role === "heading" || role === "img";
          }
        }
        if (role === "combobox" && el.tagName === "SELECT") continue;
        if (el.shadowRoot) visit(el.shadowRoot, childDepth, childInAction);
        visit(el, childDepth, childInAction);
      }
    };
    if (doc.body) visit(doc.body, depth, false);
  };
  S.frames.push({ doc: document, owner: null });
  walkDoc(document, 0, 0);
  return { token: S.token, url: location.href, title: document.title, items, frames: S.frames.length, scroll: [scrollX, scrollY], size: [innerWidth, innerHeight], page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight] };
};
const related = (hit, el) => {
  if (!hit) return true;
  if (hit.tagName === "LABEL") return true;
  for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return true;
  for (let n = el; n; n = n.parentNode || n.host) if (n === hit) return true;
  return false;
};
const hitAt = (doc, x, y) => {
  // Into open shadow roots: the document only reports the outermost host.
  let h = doc.elementFromPoint(x, y);
  for (let i = 0; i < 30 && h && h.shadowRoot; i++) { const inner = h.shadowRoot.elementFromPoint(x, y); if (!inner || inner === h) break; h = inner; }
  return h;
};
const inside = (n, el) => { for (let c = n; c; c = c.parentNode || c.host) if (c === el) return true; return false; };
const hits = (arg) => arg.map((c) => {
  const el = byId(c.id);
  if (!el) return { ok: false, gone: true };
  for (let i = 0; i < c.chain.length; i++) {
    const lvl = c.chain[i]; const f = S.frames[lvl.frame];
    if (!f) return { ok: true };
    const hit = hitAt(f.doc, lvl.x, lvl.y);
    if (i < c.chain.length - 1) { const next = S.frames[c.chain[i + 1].frame]; if (hit && next && hit !== next.owner && !related(hit, next.owner)) return { ok: false, by: describe(hit) }; }
    else if (!related(hit, el)) return { ok: false, by: describe(hit) };
  }
  return { ok: true };
});
const describe = (n) => n ? "<" + n.tagName.toLowerCase() + (n.id ? " #" + n.id : n.getAttribute("aria-label") ? ' "' + n.getAttribute("aria-label") + '"' : "") + ">" : "nothing";
const frameChain = (el) => {
  const chain = [];
  let doc = el.ownerDocument;
  for (let guard = 0; guard < 20; guard++) {
    const index = S.frames.findIndex((f) => f.doc === doc);
    if (index < 0) return null;
    chain.unshift(index);
    const owner = S.frames[index].owner;
    if (!owner) break;
    doc = owner.ownerDocument;
  }
  return chain;
};
const locate = (id) => {
  const el = byId(id);
  if (!el) return { gone: true };
  el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  const chain = frameChain(el);
  if (!chain) return { gone: true };
  const visible = !el.checkVisibility || el.checkVisibility({ visibilityProperty: true });
  return { rect: rectOf(el), visible, chain, owners: chain.map((f) => (S.frames[f].owner ? ownerRect(S.frames[f].owner) : null)) };
};
const mouse = (target, type, x, y, extra) => {
  const Ctor = type.startsWith("pointer") ? PointerEvent : MouseEvent;
  return target.dispatchEvent(new Ctor(type, Object.assign({ bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, view: target.ownerDocument.defaultView, pointerId: 1, pointerType: "mouse", isPrimary: true }, extra || {})));
};
const pointAt = (el, frame, x, y) => { const f = S.frames[frame]; const hit = f ? hitAt(f.doc, x, y) : null; return hit && inside(hit, el) ? hit : el; };
const setValue = (el, value) => {
  const proto = el.tagName === "TEXTAREA" ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value").set;
  setter.call(el, value);
};
const key = (target, type, k) => target.dispatchEvent(new KeyboardEvent(type, { key: k, code: k.length === 1 ? (/[a-z]/i.test(k) ? "Key" + k.toUpperCase() : /\d/.test(k) ? "Digit" + k : "") : k, bubbles: true, cancelable: true, composed: true }));
const ops = {
  ping: (a) => { if (a && a.reset) S.navigating = ""; return { token: S.token, url: location.href, title: document.title, ready: document.readyState, navigating: S.navigating || "" }; },
  snapshot,
  hits,
  locate,
  alive: (id) => !!byId(id),
  focused: () => { const a = deepActive(); return a && a !== document.body ? S.ids.get(a) || 0 : 0; },
  click: (a) => {
    const el = byId(a.id); if (!el) return { gone: true };
    const t = pointAt(el, a.frame, a.x, a.y);
    const opts = { button: a.button || 0, buttons: 1, detail: 1, ctrlKey: !!a.ctrl, shiftKey: !!a.shift, altKey: !!a.alt, metaKey: !!a.meta };
    mouse(t, "pointerover", a.x, a.y); mouse(t, "mouseover", a.x, a.y); mouse(t, "pointermove", a.x, a.y); mouse(t, "mousemove", a.x, a.y);
    for (let i = 1; i <= (a.count || 1); i++) {
      mouse(t, "pointerdown", a.x, a.y, opts); const go = mouse(t, "mousedown", a.x, a.y, Object.assign({}, opts, { detail: i }));
      if (go && el.focus && (el.tabIndex >= 0 || el.isContentEditable)) el.focus({ preventScroll: true });
      mouse(t, "pointerup", a.x, a.y, Object.assign({}, opts, { buttons: 0 })); mouse(t, "mouseup", a.x, a.y, Object.assign({}, opts, { buttons: 0, detail: i }));
      if ((a.button || 0) === 0) mouse(t, "click", a.x, a.y, Object.assign({}, opts, { buttons: 0, detail: i })); else if (a.button === 2) mouse(t, "contextmenu", a.x, a.y, Object.assign({}, opts, { buttons: 0 }));
      if (i === 2) mouse(t, "dblclick", a.x, a.y, Object.assign({}, opts, { buttons: 0, detail: 2 }));
    }
    return { ok: true };
  },
  hover: (a) => { const el = byId(a.id); if (!el) return { gone: true }; const t = pointAt(el, a.frame, a.x, a.y); for (const type of ["pointerover", "pointerenter", "mouseover", "mouseenter", "pointermove", "mousemove"]) mouse(t, type, a.x, a.y); return { ok: true }; },
  type: (a) => {
    const el = byId(a.id); if (!el) return { gone: true };
    if (el.disabled || el.readOnly) return { error: el.disabled ? "disabled" : "read-only" };
    el.focus({ preventScroll: true });
    const input = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && !["checkbox", "radio", "file", "button", "submit", "reset", "image", "range", "color"].includes(el.type));
    if (input) {
      setValue(el, (a.clear ? "" : el.value) + a.text);
      el.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText", data: a.text }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (el.isContentEditable) {
      const doc = el.ownerDocument; const sel = doc.getSelection(); const r = doc.createRange(); r.selectNodeContents(el);
      if (!a.clear) r.collapse(false);
      sel.removeAllRanges(); sel.addRange(r);
      doc.execCommand("insertText", false, a.text);
    } else return { error: "not-text" };
    if (a.enter) {
      const go = key(el, "keydown", "Enter"); key(el, "keypress", "Enter"); key(el, "keyup", "Enter");
      if (go && el.form && el.tagName === "INPUT") el.form.requestSubmit();
    }
    return { value: "value" in el ? String(el.value) : el.innerText };
  },
  keys: (a) => {
    let t = a.id ? byId(a.id) : deepActive();
    if (a.id && !t) return { gone: true };
    if (a.id) t.focus({ preventScroll: true });
    t = t || document.body;
    for (const chord of a.keys) {
      const parts = chord === "+" ? ["+"] : chord.split("+"); const k = parts[parts.length - 1]; const mods = new Set(parts.slice(0, -1));
      const init = { key: k, bubbles: true, cancelable: true, composed: true, ctrlKey: mods.has("Control"), shiftKey: mods.has("Shift"), altKey: mods.has("Alt"), metaKey: mods.has("Meta") };
      const go = t.dispatchEvent(new KeyboardEvent("keydown", init));
      if (go) {
        const doc = t.ownerDocument || document;
        if ((init.ctrlKey || init.metaKey) && k.toLowerCase() === "a") { if (t.select) t.select(); else doc.execCommand("selectAll"); }
        else if (k === "Backspace") doc.execCommand("delete");
        else if (k === "Delete") doc.execCommand("forwardDelete");
        else if (k.length === 1 && !init.ctrlKey && !init.metaKey && !init.altKey) doc.execCommand("insertText", false, k);
        else if (k === "Enter" && t.form && t.tagName === "INPUT") t.form.requestSubmit();
        else if (k === "End" && t.setSelectionRange) t.setSelectionRange(t.value.length, t.value.length);
        else if (k === "Home" && t.setSelectionRange) t.setSelectionRange(0, 0);
      }
      t.dispatchEvent(new KeyboardEvent("keyup", init));
    }
    return { ok: true };
  },
  select: (a) => {
    const el = byId(a.id); if (!el) return { gone: true };
    if (el.tagName !== "SELECT") return { error: "not-select" };
    if (el.disabled) return { error: "disabled" };
    const opts = [...el.options]; const norm = (s) => squeeze(s).toLowerCase(); const pick = [];
    for (const w of a.values) { const o = opts.find((o) => o.label === w || o.value === w) || opts.find((o) => norm(o.label) === norm(w) || norm(o.value) === norm(w)); if (!o) return { error: "missing", available: opts.map((o) => o.label).slice(0, 50) }; pick.push(o); }
    if (!el.multiple && pick.length > 1) return { error: "single" };
    for (const o of opts) o.selected = pick.includes(o);
    el.dispatchEvent(new Event("input", { bubbles: true, composed: true })); el.dispatchEvent(new Event("change", { bubbles: true }));
    return { selected: [...el.selectedOptions].map((o) => o.label) };
  },
  drag: (a) => {
    const from = byId(a.from), to = byId(a.to); if (!from || !to) return { gone: true };
    const dt = new DataTransfer();
    const drag = (t, type, x, y) => t.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, dataTransfer: dt }));
    mouse(from, "pointerdown", a.fx, a.fy, { buttons: 1 }); mouse(from, "mousedown", a.fx, a.fy, { buttons: 1 });
    const native = from.getAttribute("draggable") === "true" || (from.closest && from.closest("[draggable=true]"));
    if (native) { drag(from, "dragstart", a.fx, a.fy); drag(to, "dragenter", a.tx, a.ty); drag(to, "dragover", a.tx, a.ty); drag(to, "drop", a.tx, a.ty); drag(from, "dragend", a.tx, a.ty); }
    else { mouse(to, "pointermove", a.tx, a.ty, { buttons: 1 }); mouse(to, "mousemove", a.tx, a.ty, { buttons: 1 }); }
    mouse(to, "pointerup", a.tx, a.ty); mouse(to, "mouseup", a.tx, a.ty);
    return { ok: true };
  },
  scroll: (a) => {
    let el = document.scrollingElement || document.documentElement;
    if (a.id) { el = byId(a.id); if (!el) return { gone: true }; }
    if (a.toId) { const t = byId(a.toId); if (!t) return { gone: true }; const b = t.getBoundingClientRect(); t.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" }); const c = t.getBoundingClientRect(); return { moved: b.x !== c.x || b.y !== c.y }; }
    const before = [el.scrollLeft, el.scrollTop];
    const amount = a.pixels || Math.round((a.vertical ? el.clientHeight || innerHeight : el.clientWidth || innerWidth) * 0.8);
    const d = a.toEdge ? 1e9 * a.sign : amount * a.sign;
    el.scrollBy({ left: a.vertical ? 0 : d, top: a.vertical ? d : 0, behavior: "instant" });
    return { moved: before[0] !== el.scrollLeft || before[1] !== el.scrollTop };
  },
  text: () => { const out = []; const walk = (d) => { out.push(d.body ? d.body.innerText : ""); for (const f of d.querySelectorAll("iframe,frame")) { try { if (f.contentDocument) walk(f.contentDocument); } catch (e) {} } for (const e of d.querySelectorAll("*")) if (e.shadowRoot) out.push(e.shadowRoot.textContent || ""); }; walk(document); return out.join("\n"); },
  navigate: (url) => { location.assign(url); return { ok: true }; },
  back: () => { const can = history.length > 1; history.back(); return { ok: can }; },
  quiet: (a) => new Promise((resolve) => {
    let timer; const cap = setTimeout(() => { mo.disconnect(); resolve(false); }, a.cap);
    const done = () => { mo.disconnect(); clearTimeout(cap); resolve(true); };
    const mo = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, a.window); });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    requestAnimationFrame(() => requestAnimationFrame(() => { timer = setTimeout(done, a.window); }));
  }),
  extract: (a) => (__EXTRACT__).call(a.id ? byId(a.id) : document, a.format),
};
globalThis.__batonDomAgent = (op, arg) => { const f = ops[op]; if (!f) throw new Error("unknown op " + op); return f(arg); };
return true;
})()`;

/** The agent's source: evaluate it once per document, then call `__batonDomAgent(op, arg)`. */
export const domAgentSource: string = agentTemplate.replace("__EXTRACT__", extractFunction);
