import { api, html, toast } from "../_shared/kit.js";
import type { Account } from "./server.js";

let account: Account;
const labels: [keyof Account["profile"], string][] = [
  ["full_name", "Full name"],
  ["email", "Email"],
  ["phone", "Phone"],
];

function renderProfile(): void {
  const root = document.getElementById("profile") as HTMLElement;
  root.innerHTML = labels
    .map(([k, label]) => html`<div class="item" data-field="${k}"><span class="label">${label}</span><span class="value">${account.profile[k]}</span><button class="edit" aria-label="Edit ${label}">✎</button></div>`.text)
    .join("");
  for (const item of root.querySelectorAll<HTMLElement>(".item")) {
    item.querySelector(".edit")?.addEventListener("click", () => editField(item));
  }
}

/** Turns a profile row into an inline form: the field, Save and Cancel. */
function editField(item: HTMLElement): void {
  const key = item.dataset.field as keyof Account["profile"];
  const label = labels.find(([k]) => k === key)?.[1] ?? key;
  item.innerHTML = html`<span class="label">${label}</span><input class="value" aria-label="${label}" value="${account.profile[key]}"><button class="primary save">Save</button><button class="cancel">Cancel</button>`.text;
  const input = item.querySelector("input") as HTMLInputElement;
  input.focus();
  item.querySelector(".cancel")?.addEventListener("click", renderProfile);
  item.querySelector(".save")?.addEventListener("click", async () => {
    account = await api<Account>("PATCH", "/api/profile", { [key]: input.value });
    renderProfile();
    toast(`${label} saved`);
  });
}

function renderPrefs(): void {
  const root = document.getElementById("prefs") as HTMLElement;
  const p = account.preferences;
  root.innerHTML = html`<div class="pref"><span>Keyboard shortcuts</span><div class="switch${p.keyboard_shortcuts ? " on" : ""}" data-pref="keyboard_shortcuts"></div></div>
<div class="pref"><span>Email digests</span><div class="switch${p.email_digests ? " on" : ""}" data-pref="email_digests"></div></div>`.text;
  for (const s of root.querySelectorAll<HTMLElement>(".switch")) {
    s.addEventListener("click", async () => {
      const key = s.dataset.pref as "keyboard_shortcuts" | "email_digests";
      account = await api<Account>("PATCH", "/api/preferences", { [key]: !account.preferences[key] });
      renderPrefs();
      toast("Preferences saved");
    });
  }
}

function renderFilters(): void {
  const root = document.getElementById("filters") as HTMLElement;
  root.innerHTML = account.filters
    .map((f) => html`<tr data-id="${f.id}"><td>Matches: ${f.matches}</td><td>Do this: ${f.action}</td><td><a href="#" class="lnk edit">edit</a><a href="#" class="lnk delete">delete</a></td></tr>`.text)
    .join("");
  for (const tr of root.querySelectorAll<HTMLElement>("tr")) {
    tr.querySelector(".edit")?.addEventListener("click", (e) => e.preventDefault());
    tr.querySelector(".delete")?.addEventListener("click", async (e) => {
      e.preventDefault();
      account = await api<Account>("DELETE", `/api/filters/${tr.dataset.id}`);
      renderFilters();
      toast("Filter deleted");
    });
  }
}

account = await api<Account>("GET", "/api/state");
renderProfile();
renderPrefs();
renderFilters();
