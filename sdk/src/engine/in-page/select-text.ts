/**
 * The page function behind select_text (see `actions/select-text.ts`): the engine sends it to
 * the page by its source (`base/page-function.ts`) and the DOM agent imports it, so it uses
 * nothing from outside its body.
 */

/**
 * Selects the `occurrence`-th match of `text` in an element's visible text (`this`), or the
 * page's when called without one: in a field, with `setSelectionRange`; elsewhere with a
 * document range across its text nodes, as a user's drag would. Spacing is matched loosely, and
 * case only when no exact match exists. Resolves to the selected text, and how many matches
 * there were.
 */
export function selectTextInPage(this: unknown, text: string, occurrence: number): { selected: string; matches: number } {
  const root = (this as Node | undefined)?.nodeType === 1 ? (this as Element) : document.body;
  const squeeze = (s: string): string => s.replace(/\s+/g, " ");
  const wanted = squeeze(text).trim();
  const nth = (hay: string): { start: number; matches: number } => {
    const find = (h: string, w: string): number[] => {
      const out: number[] = [];
      for (let i = h.indexOf(w); i >= 0 && w; i = h.indexOf(w, i + 1)) out.push(i);
      return out;
    };
    let at = find(hay, wanted);
    if (at.length === 0) at = find(hay.toLowerCase(), wanted.toLowerCase());
    return { start: at[occurrence - 1] ?? -1, matches: at.length };
  };
  if (root.localName === "input" || root.localName === "textarea") {
    const field = root as HTMLInputElement;
    // Map positions of the squeezed value back to the value.
    const map: number[] = [];
    let flat = "";
    for (let i = 0; i < field.value.length; i++) {
      const c = field.value[i]!;
      if (/\s/.test(c) && flat.endsWith(" ")) continue;
      flat += /\s/.test(c) ? " " : c;
      map.push(i);
    }
    const { start, matches } = nth(flat);
    if (start < 0) return { selected: "", matches };
    field.focus({ preventScroll: true });
    field.setSelectionRange(map[start]!, (map[start + wanted.length - 1] ?? field.value.length - 1) + 1);
    return { selected: field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0), matches };
  }
  const nodes: { node: Text; from: number }[] = [];
  const points: { node: Text; offset: number }[] = [];
  let flat = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    const parent = n.parentElement;
    if (!parent || !parent.checkVisibility({ visibilityProperty: true, opacityProperty: true }) || ["SCRIPT", "STYLE", "TEMPLATE"].includes(parent.tagName)) continue;
    nodes.push({ node: n, from: flat.length });
    const v = n.data;
    for (let i = 0; i < v.length; i++) {
      const c = v[i]!;
      if (/\s/.test(c) && (flat.endsWith(" ") || flat === "")) continue;
      flat += /\s/.test(c) ? " " : c;
      points.push({ node: n, offset: i });
    }
  }
  const { start, matches } = nth(flat);
  if (start < 0) return { selected: "", matches };
  const first = points[start]!;
  const last = points[start + wanted.length - 1] ?? points[points.length - 1]!;
  const host = first.node.parentElement?.closest('[contenteditable=""],[contenteditable="true"],[contenteditable="plaintext-only"]') as HTMLElement | null;
  host?.focus({ preventScroll: true });
  const range = document.createRange();
  range.setStart(first.node, first.offset);
  range.setEnd(last.node, last.offset + 1);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
  return { selected: selection?.toString() ?? "", matches };
}
