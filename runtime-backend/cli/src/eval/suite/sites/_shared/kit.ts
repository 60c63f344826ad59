/**
 * What the suite's fixture apps share in the browser: escaped HTML templates, a JSON API
 * helper, a History-API router, delegated events and toasts — the small core a real
 * single-page app gets from its framework. Served to every site at /_shared/kit.js.
 */

/** Markup that is already safe; {@link html} inserts it as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Escapes a value for HTML text or a quoted attribute. */
export function esc(v: unknown): string {
  return String(v ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A template whose interpolations are escaped, except {@link Html} and lists of it. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    const part = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.text : esc(x))).join("") : v instanceof Html ? v.text : v === false || v === undefined || v === null ? "" : esc(v);
    out += part + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** An API error: the server's `{ "error": … }` message, its status and the whole answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** Calls the app's JSON API; rejects with {@link ApiError} on a non-2xx answer. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    ...(body === undefined ? {} : body instanceof FormData ? { body } : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  if (res.status === 204) return undefined as T;
  const data = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(res.status, data.error ?? `HTTP ${res.status}`, data);
  return data as T;
}

/** Renders `view` for each path; same-origin links and {@link navigate} change it without a reload. */
export function startRouter(view: (path: string, query: URLSearchParams) => void | Promise<void>): void {
  const render = () => void view(location.pathname, new URLSearchParams(location.search));
  addEventListener("popstate", render);
  document.addEventListener("click", (e) => {
    const a = (e.target as Element | null)?.closest?.("a[href]");
    if (!(a instanceof HTMLAnchorElement) || a.target || a.origin !== location.origin || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    navigate(a.pathname + a.search);
  });
  render();
}

/** Goes to `path` in the app (History API) and renders it. */
export function navigate(path: string): void {
  history.pushState(null, "", path);
  dispatchEvent(new PopStateEvent("popstate"));
}

/**
 * One listener on the document for every element carrying `data-action` (as frameworks delegate
 * events to the root): `on("click", "open", (el) => …)` runs for a click anywhere inside an
 * element with `data-action="open"`. The elements themselves have no listener of their own.
 */
export function on<K extends keyof DocumentEventMap>(type: K, action: string, handler: (el: HTMLElement, e: DocumentEventMap[K]) => void): void {
  document.addEventListener(type, (e) => {
    const el = (e.target as Element | null)?.closest?.(`[data-action="${action}"]`);
    if (el instanceof HTMLElement) handler(el, e);
  });
}

/** Calls `fn` once `ms` have passed without another call (search-as-you-type). */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** Shows a short message at the bottom of the page for a few seconds. */
export function toast(text: string): void {
  const el = document.createElement("div");
  el.className = "toast";
  el.setAttribute("role", "status");
  el.textContent = text;
  document.body.append(el);
  setTimeout(() => el.remove(), 3000);
}

/** Replaces the content of `#app`. */
export function mount(view: Html): void {
  const root = document.getElementById("app");
  if (root) root.innerHTML = view.text;
}

/** The value of a form field by name. */
export function field(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name);
  return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement ? el.value : "";
}
