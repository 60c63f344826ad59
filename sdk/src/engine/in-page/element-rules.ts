/**
 * The rules that decide which elements get a ref, with what role and name, shared by the CDP
 * engine (over DOMSnapshot facts, in Node) and the DOM fallback (over the live DOM, in the
 * page): Node imports `rules` from this module, and the DOM agent's bundle (`gen/in-page-source.ts`)
 * carries the same module into the page.
 */

/** One element as the rules see it, whichever engine read it. */
export interface ElementView {
  /** Lower-case local name ("div", "svg", "#text" for text). */
  readonly tag: string;
  attr(name: string): string | null;
  /** Child nodes in order (elements and text). */
  children(): readonly ElementView[];
  /** For a text node: its text; else "". */
  readonly text: string;
  /** Rendered: a box of positive size, not hidden by visibility, opacity or font-size 0. */
  readonly shown: boolean;
}

/** Facts about an element beyond its tag and attributes, gathered by each engine its own way. */
export interface ElementFacts {
  readonly tag: string;
  attr(name: string): string | null;
  /** Its own click, mousedown, mouseup, pointerdown, pointerup, touchstart or dblclick listener. */
  readonly listener: boolean;
  /** Computed cursor is pointer where the parent's is not. */
  readonly pointer: boolean;
  /** A `<label>` whose control is hidden from a person (`controlHidden`): the label stands for it. */
  readonly standIn: boolean;
  /** The host of a contenteditable region (not a paragraph inside one). */
  readonly editableHost: boolean;
  /**
   * Inside a floating (absolutely or fixed positioned) list: an item whose class names it an
   * option or suggestion is one, though its clicks are handled at the page's root (React).
   */
  readonly floatingItem?: boolean;
}

/** An element in document order for `classify`: its parent's position and its signs. */
export interface RuleItem {
  /** Index of the parent element in the same array, or -1. */
  readonly parent: number;
  /** `signsOf` of the element. */
  readonly signs: number;
  /** A list container (`ul`, `ol`, `tbody`, `table`, a list-like role). */
  readonly list: boolean;
  /**
   * Nothing a person sees to click: no box or area, transparent or invisible (before any hover),
   * or wholly before the page's origin. It does not make the element holding it a delegating
   * container (a terminal's hidden helper input).
   */
  readonly empty?: boolean;
}

/** Sign bits: what makes an element something to act on. */
const NATIVE = 1;
const ROLE = 2;
const LISTENER = 4;
const POINTER = 8;
const TABINDEX = 16;
const DRAG = 32;
/** Given to the items of a list whose listener handles them (event delegation). */
const ITEM = 64;

/** ARIA widget roles: an element with one is a target. */
const widgetRoles = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
  "treeitem", "slider", "spinbutton", "textbox", "searchbox", "combobox", "listbox", "gridcell", "row",
]);
/** Roles of containers whose items a delegated listener handles. */
const listRoles = new Set(["list", "listbox", "menu", "menubar", "tablist", "tree", "grid", "rowgroup", "radiogroup", "treegrid"]);

/** Roles (ARIA and Chromium's internal ones) that always get a ref. */
const actionableRoles = new Set([
  ...widgetRoles,
  "MenuListOption", "ListBoxOption", "PopUpButton", "ToggleButton", "DisclosureTriangle", "scrollbar", "textField", "TextField",
  "Date", "DateTime", "InputTime", "ColorWell",
]);
actionableRoles.delete("gridcell");
actionableRoles.delete("row");
/** Roles printed as context lines without a ref, because they orient the reader. */
const contextRoles = new Set(["heading", "image", "img", "dialog", "alertdialog", "alert"]);
/** Roles that never print: structure, or text already carried by a name. */
const silentRoles = new Set(["RootWebArea", "WebArea", "generic", "none", "presentation", "InlineTextBox", "LineBreak", "ListMarker", "LabelText", "MenuListPopup"]);
/** Short spellings of Chromium's internal role names. */
const roleAliases: Record<string, string> = {
  MenuListOption: "option", ListBoxOption: "option", PopUpButton: "combobox", ToggleButton: "button", DisclosureTriangle: "button",
  TextField: "textbox", textField: "textbox", image: "img", Date: "date", DateTime: "datetime", InputTime: "time", ColorWell: "color",
};
/** Roles of fields: their content is their value, never their name. */
const fieldRoles = new Set(["textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "date", "datetime", "time", "color", "Date", "DateTime", "InputTime", "ColorWell", "TextField", "textField", "PopUpButton"]);

const firstRole = (f: { attr(name: string): string | null }): string => (f.attr("role") ?? "").trim().split(/\s+/)[0] ?? "";
/** Class words of the items of a suggestion list or a custom select's menu. */
const optionWords = ["option", "suggestion", "suggest"];

/** A native control: a link with an href, a button, a field, a select, a summary, an editing host, a stand-in label. */
const isNative = (f: ElementFacts): boolean => {
  const t = f.tag;
  if (t === "a" || t === "area") return f.attr("href") !== null;
  if (t === "button" || t === "select" || t === "textarea" || t === "summary") return true;
  if (t === "input") return (f.attr("type") ?? "").toLowerCase() !== "hidden";
  return f.standIn || f.editableHost;
};

/** The signs that make an element something to act on (bits above); 0 for none. */
const signsOf = (f: ElementFacts): number => {
  if (f.tag === "html" || f.tag === "body") return 0;
  let s = 0;
  if (isNative(f)) s |= NATIVE;
  if (widgetRoles.has(firstRole(f))) s |= ROLE;
  if (f.listener) s |= LISTENER;
  if (f.pointer) s |= POINTER;
  const tabindex = f.attr("tabindex");
  if (tabindex !== null && Number(tabindex) >= 0 && tabindex.trim() !== "") s |= TABINDEX;
  if (f.attr("draggable") === "true") s |= DRAG;
  if (f.floatingItem && words(f).some((w) => optionWords.includes(w))) s |= ITEM;
  // A plain label is its control's name: the control is the target.
  if (f.tag === "label" && !(s & (NATIVE | LISTENER)) && f.attr("role") === null && f.attr("tabindex") === null) return 0;
  return s;
};

/**
 * Whether a form control is hidden from a person though it is in the page: no box, a box at
 * most 2 px across (the "visually hidden" pattern: 1 px, clipped) or not painted
 * (`visibility: hidden`, opacity 0 on it or an ancestor). A `<label>` of such a control is
 * what the user clicks (a custom checkbox or switch): it stands in for the control, with the
 * control's role, name and state.
 */
const controlHidden = (box: { width: number; height: number } | undefined, painted: boolean): boolean =>
  !box || box.width <= 2 || box.height <= 2 || !painted;

/** A list container, whose items a listener on it handles when it is the only sign. */
const isList = (f: { tag: string; attr(name: string): string | null }): boolean =>
  f.tag === "ul" || f.tag === "ol" || f.tag === "tbody" || f.tag === "table" || listRoles.has(firstRole(f));

/**
 * Which elements are targets, over elements in document order (a parent before its
 * children): 1 for a target, 0 otherwise. A listener that is an element's only sign makes it
 * a delegating container, not a target, when it holds other targets (an app root, a board) or
 * is a list; a list hands its items over (each child becomes a target, `ITEM`). Signs that
 * are only a pointer cursor, a tabindex or draggable inside another target make that
 * element part of the target's clickable region (one ref per region). `signs` is updated in
 * place with `ITEM` for delegated items.
 */
const classify = (items: readonly RuleItem[]): { target: Uint8Array; signs: Int32Array } => {
  const n = items.length;
  const signs = new Int32Array(n);
  for (let i = 0; i < n; i++) signs[i] = items[i]!.signs;
  // Whether any descendant has a sign (children come after their parents).
  const holds = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const p = items[i]!.parent;
    if (p >= 0 && (holds[i] || (signs[i] && !items[i]!.empty))) holds[p] = 1;
  }
  for (let i = 0; i < n; i++) {
    if (signs[i] !== LISTENER) continue;
    const list = items[i]!.list;
    if (!holds[i] && !list) continue;
    signs[i] = 0;
    if (list) for (let c = i + 1; c < n; c++) if (items[c]!.parent === i && !signs[c]) signs[c] = ITEM;
  }
  const target = new Uint8Array(n);
  const inTarget = new Uint8Array(n);
  const weak = POINTER | TABINDEX | DRAG;
  for (let i = 0; i < n; i++) {
    const p = items[i]!.parent;
    if (p >= 0) inTarget[i] = inTarget[p] || target[p] ? 1 : 0;
    const s = signs[i]!;
    if (!s) continue;
    target[i] = (s & ~weak) === 0 && inTarget[i] ? 0 : 1;
  }
  return { target, signs };
};

/** Class and id words, split on non-letters and case changes ("navItem" → nav, item). */
const words = (f: { attr(name: string): string | null }): string[] =>
  `${f.attr("class") ?? ""} ${f.attr("id") ?? ""}`
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

/**
 * The role printed for a target that is neither a native control nor has an ARIA role: what
 * its tag, its container (`floating`: absolutely or fixed positioned, a popup) and its class
 * words say, or "clickable".
 */
const regionRole = (
  f: ElementFacts,
  signs: number,
  parent: { tag: string; attr(name: string): string | null; floating?: boolean } | undefined,
  hasText: boolean,
): string => {
  const w = words(f);
  const has = (...xs: string[]): boolean => xs.some((x) => w.includes(x));
  if (signs & ITEM && parent) {
    const pr = firstRole(parent);
    const pw = words(parent);
    if (pr === "listbox" || has("option", "suggestion", "suggest") || pw.some((x) => x === "suggest" || x === "suggestions" || x === "autocomplete")) return "option";
    // A list floating over the page (absolutely positioned), not a menu: a popup of choices.
    if (parent.floating && !(pr === "menu" || pw.includes("menu")) && (parent.tag === "ul" || parent.tag === "ol" || pr === "list")) return "option";
    if (pr === "menu" || pr === "menubar" || words(parent).includes("menu")) return "menuitem";
    if (pr === "tablist") return "tab";
    if (f.tag === "tr" || pr === "grid" || pr === "rowgroup" || parent.tag === "tbody" || parent.tag === "table") return "row";
  }
  if (has("slider", "range")) return "slider";
  if (has("switch", "toggle")) return "switch";
  // A custom select (jQuery Selectric, Select2, a `<div>` dropdown): its text is its value.
  if (has(...selectWords) || (parent && words(parent).some((x) => selectWords.includes(x)))) return "combobox";
  if (has("checkbox", "cb", "check")) return "checkbox";
  if (has("tab", "tabs") && f.tag !== "a") return "tab";
  if (has("option")) return "option";
  if (f.tag === "a") return "link";
  if (f.tag === "tr" || has("row")) return "row";
  if (f.tag === "li") return signs & ITEM && parent && words(parent).includes("menu") ? "menuitem" : "listitem";
  if (has("btn", "button") || !hasText) return "button";
  return "clickable";
};

/** Class words of custom selects (the element or its wrapper): the element shows the current value. */
const selectWords = ["select", "selectric", "dropdown", "picker", "combobox", "combo", "chosen"];

/** Class words that say an element is on, selected or current. */
const onWords = ["on", "active", "selected", "current", "checked", "is-active", "is-selected", "enabled"];

/**
 * States a region's class words (or ARIA states) give: "on"/"off" for switches, always;
 * "checked"/"unchecked" for checkboxes, "selected" for tabs.
 */
const regionStates = (f: { attr(name: string): string | null }, role: string): string[] => {
  const w = words(f);
  const on = onWords.some((x) => w.includes(x)) || f.attr("aria-checked") === "true" || f.attr("aria-pressed") === "true";
  if (role === "switch") return [on ? "on" : "off"];
  if (role === "checkbox") return [on ? "checked" : "unchecked"];
  if ((role === "tab" || role === "option") && on) return ["selected"];
  return [];
};

/**
 * Class words that say which state an icon toggle is in (a star, a flag): printed as the
 * state, and as "not …" on the same kind of control without it (`toggleStates`).
 */
const toggleWords = ["starred", "flagged", "pinned", "important", "liked", "favorited", "favourited", "bookmarked", "muted", "followed", "subscribed"];

/** The role as the model sees it. */
const displayRole = (role: string): string => roleAliases[role] ?? role;

/**
 * A clickable region's name from its visible text: enough words to tell it from its
 * neighbours (a row's sender and subject), cut at a word near 60 characters.
 */
const regionName = (text: string): string => {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= 60) return t;
  const cut = t.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return `${(space > 40 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, "")}…`;
};

/** Whether an element of this role may be named by its content (not fields: their content is their value). */
const nameFromContent = (role: string): boolean => !fieldRoles.has(role);

/** Icon class prefixes of common icon sets, and what follows them is the icon's name. */
const iconPrefix = /^(?:fa|fas|far|fab|bi|mdi|ti|icon|icons|glyphicon|ion|ri|la|lni|feather|lucide|octicon|material-icons|ms|uil|bx|gg)-([a-z0-9][a-z0-9-]*)$/;
/** Class words that are about size or style, not about what the icon shows. */
const iconNoise = new Set([
  "fw", "lg", "sm", "xs", "xl", "2x", "3x", "solid", "regular", "light", "outline", "filled", "round", "sharp", "spin", "pulse",
  "icon", "icons", "ico", "svg", "inline", "small", "large", "btn", "button", "wrapper", "wrap", "container", "link", "item",
  "active", "on", "off", "selected", "current", "disabled", "hover", "focus", "open", "closed", "hidden", "show", "left", "right",
]);
/** Classes of icon fonts that draw a ligature: the element's text is the icon's name. */
const ligatureClass = /(^|\s)(material-icons[a-z-]*|material-symbols[a-z-]*|mi|icon-ligature)(\s|$)/;

const humanize = (s: string): string => s.replace(/[-_]+/g, " ").replace(/\s+/g, " ").trim();

/** The icon named by one element's classes, `use` href, image source or data attribute. */
const iconOf = (v: ElementView): string => {
  const data = v.attr("data-icon") ?? v.attr("data-feather") ?? v.attr("data-lucide");
  if (data) return humanize(data);
  if (v.tag === "use") {
    const href = v.attr("href") ?? v.attr("xlink:href") ?? "";
    const m = /#(?:icon[-_])?([a-z0-9][\w-]*)$/i.exec(href);
    if (m) return humanize(m[1]!.replace(/^(?:i|ic|svg)[-_]/, ""));
  }
  if (v.tag === "img") {
    const m = /([a-z0-9][\w-]*)\.(?:svg|png|gif|webp|jpe?g)(?:[?#]|$)/i.exec(v.attr("src") ?? "");
    if (m && !/^data:/i.test(v.attr("src") ?? "")) return humanize(m[1]!.replace(/^(?:icon|ic)[-_]/, ""));
  }
  for (const c of (v.attr("class") ?? "").split(/\s+/)) {
    const m = iconPrefix.exec(c.toLowerCase());
    if (m && !iconNoise.has(m[1]!)) return humanize(m[1]!);
  }
  return "";
};

/** Ranks of `derivedName`'s sources, best first. */
const nameRank = { label: 0, ligature: 1, icon: 2, classWord: 3, none: 4 } as const;

/**
 * The best name the page offers for an element the accessibility tree left unnamed (an
 * icon-only control), looking at it and its shown descendants in order, with its rank
 * (`nameRank`): a title, an aria-label, an image's alt or an SVG `<title>` (label); an icon
 * font's ligature text (ligature); an icon name from a class, a `<use>` reference or an image
 * file name (icon); and last a word of the element's own class (classWord).
 */
const derivedName = (root: ElementView): { name: string; rank: number } => {
  const candidates: { rank: number; name: string }[] = [];
  let budget = 60;
  const squeeze = (s: string | null): string => (s ?? "").replace(/\s+/g, " ").trim();
  const visit = (v: ElementView): void => {
    if (--budget < 0) return;
    const title = squeeze(v.attr("title"));
    if (title) candidates.push({ rank: 0, name: title });
    const label = squeeze(v.attr("aria-label"));
    if (label) candidates.push({ rank: 1, name: label });
    if (v.tag === "img") {
      const alt = squeeze(v.attr("alt"));
      if (alt) candidates.push({ rank: 2, name: alt });
    }
    const kids = v.children();
    if (v.tag === "title") {
      const t = squeeze(kids.map((k) => k.text).join(""));
      if (t) candidates.push({ rank: 3, name: t });
    }
    if (ligatureClass.test(v.attr("class") ?? "")) {
      const t = squeeze(kids.map((k) => k.text).join(""));
      if (/^[a-z0-9_]+$/.test(t)) candidates.push({ rank: 4, name: humanize(t) });
    }
    const icon = iconOf(v);
    if (icon) candidates.push({ rank: 5, name: icon });
    for (const k of kids) if (k.tag !== "#text" && (k.shown || k.tag === "title" || k.tag === "use")) visit(k);
  };
  visit(root);
  // Last of all, a word of the element's own class that is not about style ("like", "share").
  const own = words(root).find((w) => w.length > 2 && !iconNoise.has(w) && !/^\d/.test(w));
  if (own) candidates.push({ rank: 6, name: own });
  candidates.sort((a, b) => a.rank - b.rank);
  const best = candidates[0];
  if (!best) return { name: "", rank: nameRank.none };
  const rank = best.rank <= 3 ? nameRank.label : best.rank === 4 ? nameRank.ligature : best.rank === 5 ? nameRank.icon : nameRank.classWord;
  return { name: best.name.slice(0, 80), rank };
};

/** A name made only of a glyph a person reads as an icon (☆ ★ ▶ ✕ ✎ ♡), not of a private-use icon-font code. */
const glyphName = (name: string): boolean => symbolOnly(name) && !/[\uE000-\uF8FF]/u.test(name) && [...name.trim()].length <= 4;

/**
 * A colour a person would name, from a computed CSS colour (`rgb(229, 57, 53)`): a hue word
 * (red, orange, yellow, green, teal, blue, purple, pink; black, grey, white for greys), with
 * "dark" or "light" where it is, and its hex code: "red #e53935". "" for a transparent one.
 */
const colourName = (css: string): string => {
  const m = /rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)(?:[,\s/]+([\d.]+))?/.exec(css);
  if (!m) return "";
  if (m[4] !== undefined && Number(m[4]) < 0.5) return "";
  const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const hex = `#${[r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const l = (max + min) / 2;
  const sat = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
  let word: string;
  if (sat < 0.15 || max - min < 0.08) word = l < 0.2 ? "black" : l > 0.9 ? "white" : l < 0.4 ? "dark grey" : l > 0.75 ? "light grey" : "grey";
  else {
    const d = max - min;
    const [rr, gg, bb] = [r / 255, g / 255, b / 255];
    let hue = max === rr ? ((gg - bb) / d) % 6 : max === gg ? (bb - rr) / d + 2 : (rr - gg) / d + 4;
    hue = (hue * 60 + 360) % 360;
    const hues: [number, string][] = [[15, "red"], [45, "orange"], [70, "yellow"], [165, "green"], [195, "teal"], [255, "blue"], [290, "purple"], [345, "pink"], [360, "red"]];
    word = hues.find(([limit]) => hue < limit)?.[1] ?? "red";
    if (l < 0.25) word = `dark ${word}`;
    else if (l > 0.8) word = `light ${word}`;
  }
  return `${word} ${hex}`;
};

/**
 * The name of a control, in order: what it shows as words (`shown`, the accessible name or
 * visible text); a title, aria-label, alt or SVG title; a glyph it shows (☆); an icon font's
 * ligature; an icon named by a class; the colour it is filled with when it shows nothing else
 * (`colour`, a swatch); the label text before it in the same row or field (`before`, read by
 * each engine its own way); symbols it shows; and only when nothing else exists a word of its
 * own class, marked as a guess.
 */
const controlName = (shown: string, derived: { name: string; rank: number }, before: () => string, colour: () => string = () => ""): { name: string; guess: boolean } => {
  if (shown && !symbolOnly(shown)) return { name: shown, guess: false };
  if (derived.rank === nameRank.label) return { name: derived.name, guess: false };
  if (shown && glyphName(shown)) return { name: shown.trim(), guess: false };
  if (derived.rank === nameRank.ligature || derived.rank === nameRank.icon) return { name: derived.name, guess: false };
  const filled = shown ? "" : colour();
  if (filled) return { name: filled, guess: false };
  const label = before();
  if (label) return { name: label, guess: false };
  if (shown) return { name: shown, guess: false };
  return derived.name ? { name: derived.name, guess: true } : { name: "", guess: false };
};

/** Whether an element draws an icon font's ligature: its text is an icon's name, not words to read. */
const isIconFont = (f: { attr(name: string): string | null }): boolean => ligatureClass.test(f.attr("class") ?? "");

/** A name made only of symbols and punctuation ("▤", "✖", "⋯"): it says nothing, a derived name says more. */
const symbolOnly = (name: string): boolean => name.trim() !== "" && !/[\p{L}\p{N}]/u.test(name);

/**
 * Whether a region is one of a row of sibling regions, laid out side by side, one of which
 * a class word marks as on or current: a custom tab strip or segmented control.
 */
const isTabLike = (siblings: readonly { top: number; on: boolean }[]): boolean =>
  siblings.length >= 2 && siblings.some((x) => x.on) && siblings.every((x) => Math.abs(x.top - siblings[0]!.top) <= 4);

/** Whether an element's class words mark it as on, selected or current. */
const marksOn = (f: { attr(name: string): string | null }): boolean => {
  const w = words(f);
  return onWords.some((x) => w.includes(x));
};

/**
 * Whether a name is only an icon font's ligature text inside the element ("delete" drawn as a
 * bin): such a name is derived too.
 */
const isLigatureName = (root: ElementView, name: string): boolean => {
  let found = false;
  let budget = 40;
  const visit = (v: ElementView): void => {
    if (found || --budget < 0) return;
    if (ligatureClass.test(v.attr("class") ?? "")) {
      const t = v.children().map((k) => k.text).join("").trim();
      if (t && t === name.trim()) found = true;
      return;
    }
    for (const k of v.children()) if (k.tag !== "#text") visit(k);
  };
  visit(root);
  return found;
};

/** The rules, one object for the snapshot (in Node, over DOMSnapshot facts) and the DOM agent (in the page). */
export const rules = {
  signs: { NATIVE, ROLE, LISTENER, POINTER, TABINDEX, DRAG, ITEM },
  actionableRoles,
  contextRoles,
  silentRoles,
  widgetRoles,
  isNative,
  signsOf,
  controlHidden,
  isList,
  classify,
  regionRole,
  regionStates,
  optionWords,
  displayRole,
  regionName,
  nameFromContent,
  derivedName,
  nameRank,
  glyphName,
  controlName,
  colourName,
  toggleWords,
  words,
  isLigatureName,
  isIconFont,
  symbolOnly,
  isTabLike,
  marksOn,
};
