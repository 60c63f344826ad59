/** The isolated world the activity tracker lives in, one per document. */
export const activityWorld = "baton-activity";

/**
 * Page-side source of the activity tracker. Installed in an isolated world of every document
 * (page scripts cannot see or fake it) before the page's own scripts run, it keeps:
 * - `last`: when the DOM last mutated (a MutationObserver on the document and on every open
 *   shadow root it finds, subtree/childList/attributes/characterData);
 * - `changes`: a counter bumped by every mutation and by every event that can change what a
 *   snapshot shows without a mutation: scroll, resize, input/change, focusin/focusout, load
 *   and error (capture: images, iframes), toggle, animation/transition start and end, font
 *   loads, and pointer/mouse over/out (hover, e.g. a real user's pointer in the extension).
 * `read()` returns those plus live facts that move before their events fire (scroll position,
 * viewport size) and whether any animation or transition is running. `quiet(win, cap, frames)`
 * resolves once the DOM has been quiet for `win` ms, measured from the last mutation or from
 * the call, whichever is later (after two animation frames when `frames`), or at `cap`.
 */
export const trackerSource = `(() => {
  if (globalThis.__batonActivity) return false;
  const t = { id: Math.random().toString(36).slice(2), changes: 0, last: performance.now() };
  const roots = new WeakSet();
  const bump = () => { t.changes++; };
  const scan = (root) => {
    if (root.nodeType === 1 && root.shadowRoot) watch(root.shadowRoot);
    if (!root.querySelectorAll) return;
    for (const el of root.querySelectorAll("*")) if (el.shadowRoot) watch(el.shadowRoot);
  };
  const mo = new MutationObserver((records) => {
    t.changes++;
    t.last = performance.now();
    for (const r of records) for (const n of r.addedNodes) if (n.nodeType === 1) scan(n);
  });
  const events = ["scroll", "input", "change", "focusin", "focusout", "load", "error", "toggle",
    "animationstart", "animationend", "animationcancel", "transitionrun", "transitionend", "transitioncancel",
    "pointerover", "pointerout", "mouseover", "mouseout"];
  const watch = (root) => {
    if (roots.has(root)) return;
    roots.add(root);
    mo.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const e of events) root.addEventListener(e, bump, { capture: true, passive: true });
    if (root !== document) scan(root);
  };
  watch(document);
  scan(document);
  addEventListener("resize", bump, { capture: true, passive: true });
  try { document.fonts.addEventListener("loadingdone", bump); } catch {}
  const running = () => { try { return document.getAnimations().some((a) => a.playState === "running"); } catch { return true; } };
  t.read = () => ({ id: t.id, changes: t.changes, idle: performance.now() - t.last, animating: running(),
    sx: scrollX, sy: scrollY, w: innerWidth, h: innerHeight });
  t.quiet = (win, cap, frames) => new Promise((resolve) => {
    const start = performance.now();
    let framed = !frames;
    let timer;
    const check = () => {
      clearTimeout(timer);
      const now = performance.now();
      const idle = now - Math.max(t.last, start);
      if (framed && idle >= win) return resolve({ ...t.read(), quiet: true });
      if (now - start >= cap) return resolve({ ...t.read(), quiet: false });
      timer = setTimeout(check, Math.max(1, Math.min(framed ? win - idle : 20, cap - (now - start))));
    };
    if (frames) {
      const framesDone = () => { if (!framed) { framed = true; check(); } };
      requestAnimationFrame(() => requestAnimationFrame(framesDone));
      // A hidden document renders no frames; do not wait for them there.
      setTimeout(framesDone, document.visibilityState === "hidden" ? 0 : 200);
    }
    check();
  });
  globalThis.__batonActivity = t;
  return true;
})()`;
