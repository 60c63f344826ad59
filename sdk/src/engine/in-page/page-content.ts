/**
 * Page functions that read a page's content (see `base/page-function.ts`): shared by the
 * extract and wait_for tools and by the DOM fallback's agent.
 */

/** What `extractContent` returns. */
export interface ExtractedContent {
  readonly content: string;
  readonly links: { text: string; url: string }[];
}

/**
 * Called on an element (or the document): its readable content as "markdown", "text" or
 * "links", plus up to 500 links; a field's whole value. Skips hidden elements and descends
 * into open shadow roots.
 */
export function extractContent(this: unknown, format: string): ExtractedContent {
  const root = (this as Node | undefined)?.nodeType === 1 ? (this as Element) : document.body;
  // A field's content is its whole value, however long.
  if (root.localName === "input" || root.localName === "textarea" || root.localName === "select") {
    return { content: format === "links" ? "" : String((root as HTMLInputElement).value), links: [] };
  }
  const links = [...root.querySelectorAll("a[href]")].slice(0, 500).map((a) => ({
    text: ((a as HTMLElement).innerText || a.getAttribute("aria-label") || "").trim(),
    url: (a as HTMLAnchorElement).href,
  }));
  if (format === "text") return { content: (root as HTMLElement).innerText ?? root.textContent ?? "", links };
  if (format === "links") return { content: "", links };
  const out: string[] = [];
  const hidden = (n: Element): boolean => {
    const s = getComputedStyle(n);
    return s.display === "none" || s.visibility === "hidden";
  };
  const inline = (n: Node): string => {
    if (n.nodeType === 3) return (n.textContent ?? "").replace(/\s+/g, " ");
    if (n.nodeType !== 1 || hidden(n as Element)) return "";
    const href = (n as HTMLAnchorElement).localName === "a" ? (n as HTMLAnchorElement).href : "";
    if (href) return `[${[...n.childNodes].map(inline).join("").trim()}](${href})`;
    if ((n as Element).tagName === "BR") return "\n";
    return [...n.childNodes].map(inline).join("");
  };
  const block = (n: Node): void => {
    if (n.nodeType === 3) {
      const t = (n.textContent ?? "").trim();
      if (t) out.push(t);
      return;
    }
    if (n.nodeType !== 1) return;
    const el = n as Element;
    if (hidden(el) || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"].includes(el.tagName)) return;
    const m = /^H([1-6])$/.exec(el.tagName);
    if (m) {
      out.push(`${"#".repeat(Number(m[1]))} ${inline(el).trim()}`);
      return;
    }
    if (el.tagName === "LI") {
      out.push(`- ${inline(el).trim()}`);
      return;
    }
    if (el.tagName === "TR") {
      out.push(`| ${[...(el as HTMLTableRowElement).cells].map((c) => inline(c).trim()).join(" | ")} |`);
      return;
    }
    if (el.tagName === "P" || (el.tagName === "A" && (el as HTMLAnchorElement).href)) {
      const t = inline(el).trim();
      if (t) out.push(t);
      return;
    }
    const kids = [...el.childNodes];
    if (kids.every((k) => k.nodeType === 3 || (k.nodeType === 1 && getComputedStyle(k as Element).display.startsWith("inline")))) {
      const t = inline(el).trim();
      if (t) out.push(t);
      return;
    }
    for (const k of kids) block(k);
    if (el.shadowRoot) for (const k of el.shadowRoot.childNodes) block(k);
  };
  block(root);
  return { content: out.join("\n"), links };
}

/**
 * The visible text of the document and of every same-origin frame inside it, plus the text of
 * open shadow roots (for text waits). With `generated`, also the text CSS draws with `content`
 * in `::before`/`::after` of shown elements (a status badge's "Saved ✓"), which `innerText`
 * leaves out; that reads every element's computed style, so callers ask for it only when the
 * plain text does not answer.
 */
export function documentText(generated = false): string {
  const out: string[] = [];
  const pseudoText = (d: Document): void => {
    const view = d.defaultView;
    if (!view) return;
    for (const e of d.querySelectorAll("*")) {
      for (const pseudo of ["::before", "::after"]) {
        const c = view.getComputedStyle(e, pseudo).content;
        if (!c || !c.includes('"')) continue;
        if (e.checkVisibility && !e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) break;
        const t = [...c.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? "").replace(/\\(.)/g, "$1")).join("").trim();
        if (t) out.push(t);
      }
    }
  };
  const walk = (d: Document): void => {
    out.push(d.body ? d.body.innerText : "");
    if (generated) pseudoText(d);
    for (const f of d.querySelectorAll("iframe,frame")) {
      try {
        const inner = (f as HTMLIFrameElement).contentDocument;
        if (inner) walk(inner);
      } catch {
        // A cross-origin frame: its own session reads it.
      }
    }
    for (const e of d.querySelectorAll("*")) if (e.shadowRoot) out.push(e.shadowRoot.textContent || "");
  };
  walk(document);
  return out.join("\n");
}
