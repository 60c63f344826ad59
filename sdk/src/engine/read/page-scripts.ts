/**
 * Functions run inside the page, as source text: they travel over CDP
 * (`Runtime.callFunctionOn`) or a content-script runner, so they cannot close over anything.
 */

/**
 * `function(format)` called on an element (or the document): the readable content as
 * "markdown", "text" or "links", plus up to 500 links. Skips hidden elements and descends into
 * open shadow roots.
 */
export const extractFunction = `function(format) {
  const root = (this && this.nodeType === 1) ? this : document.body;
  const links = [...root.querySelectorAll("a[href]")].slice(0, 500).map((a) => ({ text: (a.innerText || a.getAttribute("aria-label") || "").trim(), url: a.href }));
  if (format === "text") return { content: root.innerText, links };
  if (format === "links") return { content: "", links };
  const out = [];
  const inline = (n) => {
    if (n.nodeType === 3) return n.textContent.replace(/\\s+/g, " ");
    if (n.nodeType !== 1) return "";
    const s = getComputedStyle(n);
    if (s.display === "none" || s.visibility === "hidden") return "";
    if (n.tagName === "A" && n.href) return "[" + [...n.childNodes].map(inline).join("").trim() + "](" + n.href + ")";
    if (n.tagName === "BR") return "\\n";
    return [...n.childNodes].map(inline).join("");
  };
  const block = (n) => {
    if (n.nodeType === 3) { const t = n.textContent.trim(); if (t) out.push(t); return; }
    if (n.nodeType !== 1) return;
    const s = getComputedStyle(n);
    if (s.display === "none" || s.visibility === "hidden" || ["SCRIPT","STYLE","NOSCRIPT","TEMPLATE"].includes(n.tagName)) return;
    const m = /^H([1-6])$/.exec(n.tagName);
    if (m) { out.push("#".repeat(+m[1]) + " " + inline(n).trim()); return; }
    if (n.tagName === "LI") { out.push("- " + inline(n).trim()); return; }
    if (n.tagName === "TR") { out.push("| " + [...n.cells].map((c) => inline(c).trim()).join(" | ") + " |"); return; }
    if (n.tagName === "P") { const t = inline(n).trim(); if (t) out.push(t); return; }
    if (n.tagName === "A" && n.href) { out.push(inline(n).trim()); return; }
    const kids = [...n.childNodes];
    if (kids.every((k) => k.nodeType === 3 || (k.nodeType === 1 && getComputedStyle(k).display.startsWith("inline")))) { const t = inline(n).trim(); if (t) out.push(t); return; }
    for (const k of kids) block(k);
    if (n.shadowRoot) for (const k of n.shadowRoot.childNodes) block(k);
  };
  block(root);
  return { content: out.join("\\n"), links };
}`;;
