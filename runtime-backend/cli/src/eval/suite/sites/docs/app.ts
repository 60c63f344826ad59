import "./code-tabs.js";
import { api, debounce, html, navigate, startRouter, toast } from "../_shared/kit.js";

interface Page {
  slug: string;
  title: string;
  html: string;
}

const nav = await api<{ slug: string; title: string }[]>("GET", "/api/nav");
let current = "";

async function show(slug: string): Promise<void> {
  const page = await api<Page>("GET", `/api/pages/${slug}`).catch(() => undefined);
  current = page ? slug : "";
  (document.getElementById("nav") as HTMLElement).innerHTML = nav.map((n) => html`<a href="/docs/${n.slug}" ${n.slug === slug ? html`aria-current="page"` : ""}>${n.title}</a>`).join("");
  // Page bodies come from our own docs build, as a static-site generator emits them.
  (document.getElementById("page") as HTMLElement).innerHTML = page ? `<h1>${page.title}</h1>${page.html}` : "<h1>Not found</h1>";
  document.title = `${page?.title ?? "Not found"} · Nimbus docs`;
  (document.getElementById("feedback") as HTMLElement).innerHTML = page
    ? html`<b>Was this page helpful?</b> <button data-helpful="yes" aria-label="Yes, this page was helpful">Yes</button> <button data-helpful="no" aria-label="No, this page was not helpful">No</button><div id="feedback-more"></div>`.text
    : "";
  const anchor = location.hash ? document.getElementById(location.hash.slice(1)) : undefined;
  if (anchor) anchor.scrollIntoView();
  else scrollTo(0, 0);
}

document.addEventListener("click", async (e) => {
  const b = (e.target as Element).closest<HTMLButtonElement>("[data-helpful]");
  if (b?.dataset.helpful === "yes") {
    await api("POST", "/api/feedback", { page: current, helpful: true });
    (document.getElementById("feedback") as HTMLElement).textContent = "Thanks for your feedback!";
  } else if (b?.dataset.helpful === "no") {
    (document.getElementById("feedback-more") as HTMLElement).innerHTML = html`<label for="comment">What was missing?</label><textarea id="comment" rows="3" style="width:100%"></textarea>
      <button class="primary" id="send-feedback">Send feedback</button>`.text;
  } else if ((e.target as Element).closest("#send-feedback")) {
    await api("POST", "/api/feedback", { page: current, helpful: false, comment: (document.getElementById("comment") as HTMLTextAreaElement).value });
    (document.getElementById("feedback") as HTMLElement).textContent = "Thanks for your feedback!";
    toast("Feedback sent");
  }
});

// The search box: an ARIA combobox whose suggestions come from the server as you type.
const input = document.getElementById("search") as HTMLInputElement;
const list = document.getElementById("suggestions") as HTMLUListElement;
let results: { title: string; href: string }[] = [];
let active = -1;
function renderSuggestions(): void {
  list.hidden = results.length === 0;
  input.setAttribute("aria-expanded", String(!list.hidden));
  list.innerHTML = results.map((r, i) => html`<li role="option" id="opt-${i}" aria-selected="${i === active}" data-href="${r.href}">${r.title}</li>`).join("");
  if (active >= 0) input.setAttribute("aria-activedescendant", `opt-${active}`);
  else input.removeAttribute("aria-activedescendant");
}
function go(href: string): void {
  results = [];
  active = -1;
  renderSuggestions();
  input.value = "";
  navigate(href);
}
const suggest = debounce(async (q: string) => {
  results = (await api<{ results: typeof results }>("GET", `/api/search?q=${encodeURIComponent(q)}`)).results;
  active = -1;
  renderSuggestions();
}, 200);
input.addEventListener("input", () => suggest(input.value));
input.addEventListener("keydown", (e) => {
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    active = Math.max(0, Math.min(results.length - 1, active + (e.key === "ArrowDown" ? 1 : -1)));
    renderSuggestions();
  } else if (e.key === "Enter") {
    const r = results[active];
    if (r) go(r.href);
  }
  if (e.key === "Escape") {
    results = [];
    renderSuggestions();
  }
});
list.addEventListener("mousedown", (e) => {
  const li = (e.target as Element).closest<HTMLElement>("[role=option]");
  if (li?.dataset.href) {
    e.preventDefault();
    go(li.dataset.href);
  }
});

startRouter(async (path) => {
  const slug = path.startsWith("/docs/") ? path.slice(6) : "";
  if (!slug) return navigate("/docs/introduction");
  await show(slug);
});
