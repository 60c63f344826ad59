/** A small history router: the path is the state, links are plain `<a href>` the app intercepts. */
import { useEffect, useState } from "preact/hooks";

const listeners = new Set<() => void>();

/** Goes to a path of the console without reloading. */
export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  for (const l of listeners) l();
}

/** The current path, re-rendering on navigation. */
export function usePath(): string {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const update = () => setPath(location.pathname);
    listeners.add(update);
    addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      removeEventListener("popstate", update);
    };
  }, []);
  return path;
}

/** Intercepts clicks on same-origin links so they navigate in place. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest("a");
    if (!a || a.target || a.origin !== location.origin || a.hasAttribute("download")) return;
    e.preventDefault();
    navigate(a.pathname + a.search);
  });
}
