import { api, ApiError, field, html, toast } from "../_shared/kit.js";
import type { Contact } from "./server.js";
interface Listing {
  contacts: Contact[];
  page: number;
  pages: number;
  total: number;
  stages: string[];
}

const state = { q: "", sort: "name", dir: "asc", page: 1 };
let listing: Listing;
let editing: Contact | undefined;
const money = (n: number) => `$${n.toLocaleString("en-US")}`;

async function load(): Promise<void> {
  listing = await api<Listing>("GET", `/api/contacts?${new URLSearchParams({ q: state.q, sort: state.sort, dir: state.dir, page: String(state.page) })}`);
  const body = document.getElementById("rows") as HTMLTableSectionElement;
  body.innerHTML = listing.contacts
    .map((c) => html`<tr><td>${c.name}</td><td>${c.company}</td><td>${c.email}</td><td><span class="stage">${c.stage}</span></td><td class="num">${money(c.value)}</td></tr>`)
    .join("");
  // One listener per row, attached after rendering (what a @click on the <tr> compiles to).
  [...body.rows].forEach((tr, i) => tr.addEventListener("click", () => openContact(listing.contacts[i])));
  (document.getElementById("page-label") as HTMLElement).textContent = `Page ${listing.page} of ${listing.pages}`;
  (document.getElementById("total") as HTMLElement).textContent = `${listing.total} contacts`;
  (document.getElementById("prev") as HTMLButtonElement).disabled = listing.page <= 1;
  (document.getElementById("next") as HTMLButtonElement).disabled = listing.page >= listing.pages;
  for (const th of document.querySelectorAll<HTMLElement>("th[data-sort]")) {
    if (th.dataset.sort === state.sort) th.setAttribute("aria-sort", state.dir === "asc" ? "ascending" : "descending");
    else th.removeAttribute("aria-sort");
  }
}

const drawer = document.getElementById("drawer") as HTMLElement;
const form = document.getElementById("contact-form") as HTMLFormElement;
function openContact(c: Contact | undefined): void {
  editing = c;
  (document.getElementById("drawer-title") as HTMLElement).textContent = c ? c.name : "New contact";
  (document.getElementById("f-stage") as HTMLSelectElement).innerHTML = listing.stages.map((s) => html`<option>${s}</option>`).join("");
  for (const k of ["name", "email", "company", "phone", "stage"] as const) {
    (form.elements.namedItem(k) as HTMLInputElement).value = c ? String(c[k]) : k === "stage" ? "Lead" : "";
  }
  (document.getElementById("form-error") as HTMLElement).textContent = "";
  drawer.hidden = false;
  (document.getElementById("f-name") as HTMLInputElement).focus();
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = Object.fromEntries(["name", "email", "company", "phone", "stage"].map((k) => [k, field(form, k)]));
  try {
    if (editing) await api("PATCH", `/api/contacts/${editing.id}`, body);
    else await api("POST", "/api/contacts", body);
    drawer.hidden = true;
    toast(editing ? "Contact saved" : "Contact added");
    await load();
  } catch (err) {
    (document.getElementById("form-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Could not save";
  }
});
document.getElementById("close")?.addEventListener("click", () => (drawer.hidden = true));
document.getElementById("add")?.addEventListener("click", () => openContact(undefined));
document.getElementById("prev")?.addEventListener("click", () => {
  state.page--;
  void load();
});
document.getElementById("next")?.addEventListener("click", () => {
  state.page++;
  void load();
});
for (const th of document.querySelectorAll<HTMLElement>("th[data-sort]")) {
  th.querySelector("button")?.addEventListener("click", () => {
    const key = th.dataset.sort ?? "name";
    state.dir = state.sort === key && state.dir === "asc" ? "desc" : "asc";
    state.sort = key;
    state.page = 1;
    void load();
  });
}
let timer: ReturnType<typeof setTimeout> | undefined;
document.getElementById("filter")?.addEventListener("input", (e) => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    state.q = (e.target as HTMLInputElement).value.trim();
    state.page = 1;
    void load();
  }, 250);
});

void load();
