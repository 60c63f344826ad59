/**
 * The page function that finds controls a stylesheet hides until their row is hovered (see
 * `read/hover-reveal.ts`). The snapshot sends it to the page by its source
 * (`base/page-function.ts`) and the DOM agent imports it, so it uses nothing from outside its body.
 */

/**
 * Runs in the hit world of the top document. Reads the `:hover` rules of the document's style
 * sheets (cached per sheet while its rule count stays the same) and returns flat pairs
 * [revealed, anchor] of element positions, with the element count first; [count] when none.
 */
export function hoverRevealsInPage(): number[] {
  type HoverRule = { reveal: string; anchor: string; self: boolean; opacity: boolean; visibility: boolean };
  type Cache = WeakMap<CSSStyleSheet, { size: number; rules: HoverRule[] }>;
  const host = globalThis as { __batonHoverRules?: Cache };
  const cache: Cache = (host.__batonHoverRules ??= new WeakMap());
  /** Splits at depth 0 (outside brackets, parentheses and quotes) on the characters `at` matches, keeping separators with `keep`. */
  const split = (s: string, at: (c: string) => boolean): string[] => {
    const out: string[] = [];
    let depth = 0;
    let quote = "";
    let cur = "";
    for (const c of s) {
      if (quote) {
        if (c === quote) quote = "";
      } else if (c === '"' || c === "'") quote = c;
      else if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") depth--;
      else if (depth === 0 && at(c)) {
        out.push(cur, c);
        cur = "";
        continue;
      }
      cur += c;
    }
    out.push(cur);
    return out;
  };
  /** A selector with `:hover` in it, as what it reveals and what is hovered; undefined when `:hover` sits inside a function. */
  const parse = (selector: string): Omit<HoverRule, "opacity" | "visibility"> | undefined => {
    // Compounds and the combinators between them (whitespace collapsed around > + ~).
    const parts = split(selector.replace(/\s*([>+~])\s*/g, "$1").trim(), (c) => c === " " || c === ">" || c === "+" || c === "~");
    const compounds: string[] = [];
    const combinators: string[] = [];
    for (let i = 0; i < parts.length; i += 2) {
      compounds.push(parts[i] ?? "");
      if (i + 1 < parts.length) combinators.push(parts[i + 1] ?? " ");
    }
    let hovered = -1;
    const stripped = compounds.map((c, i) => {
      const pieces = split(c, (x) => x === ":");
      // Pieces alternate text and ":"; a piece starting "hover" after a single ":" is the pseudo-class.
      let out = "";
      let found = false;
      for (let k = 0; k < pieces.length; k++) {
        const p = pieces[k]!;
        if (p === ":" && pieces[k + 1]?.startsWith("hover") && !/^hover[\w-]/.test(pieces[k + 1] ?? "") && pieces[k - 1] !== ":") {
          found = true;
          pieces[k + 1] = pieces[k + 1]!.slice(5);
          continue;
        }
        out += p;
      }
      if (found) hovered = i;
      return out === "" ? "*" : out;
    });
    if (hovered < 0) return undefined;
    const join = (n: number): string => stripped.slice(0, n).map((c, i) => (i === 0 ? c : `${combinators[i - 1] === " " ? " " : ` ${combinators[i - 1]} `}${c}`)).join("");
    return { reveal: join(stripped.length), anchor: join(hovered + 1), self: hovered === stripped.length - 1 };
  };
  const rules: HoverRule[] = [];
  const visit = (list: CSSRuleList, into: HoverRule[]): void => {
    for (const r of list) {
      if (r instanceof CSSStyleRule) {
        if (!r.selectorText.includes(":hover")) continue;
        const opacity = r.style.opacity !== "" && Number.parseFloat(r.style.opacity) > 0;
        const visibility = r.style.visibility === "visible";
        if (!opacity && !visibility) continue;
        for (const s of split(r.selectorText, (c) => c === ",").filter((_, i) => i % 2 === 0)) {
          const p = s.includes(":hover") ? parse(s) : undefined;
          if (p) into.push({ ...p, opacity, visibility });
        }
      } else if ("cssRules" in r && !(r instanceof CSSStyleRule)) {
        // @media, @supports, @layer, @container: their rules apply as written.
        visit((r as CSSGroupingRule).cssRules, into);
      }
    }
  };
  for (const sheet of document.styleSheets) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue; // A cross-origin sheet without CORS: its rules are not readable.
    }
    let known = cache.get(sheet);
    if (!known || known.size !== list.length) {
      known = { size: list.length, rules: [] };
      visit(list, known.rules);
      cache.set(sheet, known);
    }
    rules.push(...known.rules);
  }
  const all = document.getElementsByTagName("*");
  const out = [all.length];
  if (rules.length === 0) return out;
  let positions: Map<Element, number> | undefined;
  const positionOf = (el: Element): number => {
    if (!positions) {
      positions = new Map();
      for (let i = 0; i < all.length; i++) positions.set(all[i]!, i);
    }
    return positions.get(el) ?? -1;
  };
  const seen = new Set<Element>();
  for (const rule of rules) {
    let els: NodeListOf<Element>;
    try {
      els = document.querySelectorAll(rule.reveal);
    } catch {
      continue;
    }
    for (let i = 0; i < els.length && i < 2000; i++) {
      const el = els[i]!;
      if (seen.has(el)) continue;
      const cs = getComputedStyle(el);
      const hidden = (rule.opacity && Number.parseFloat(cs.opacity) === 0) || (rule.visibility && cs.visibility === "hidden");
      if (!hidden) continue;
      const anchor = rule.self ? el : el.parentElement?.closest(rule.anchor);
      if (!anchor) continue;
      const a = positionOf(el);
      const b = positionOf(anchor);
      if (a < 0 || b < 0) continue;
      seen.add(el);
      out.push(a, b);
    }
  }
  return out;
}
