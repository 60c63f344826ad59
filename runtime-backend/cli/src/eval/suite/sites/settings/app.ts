import "./theme-picker.js";
import { api, ApiError, field, html, toast } from "../_shared/kit.js";
import type { Settings as Stored } from "./server.js";

type Settings = Stored & { timezones: string[] };

let s: Settings;
const panel = (id: string) => document.getElementById(`panel-${id}`) as HTMLElement;

// Tabs (the WAI-ARIA pattern): click or arrow keys select, only the selected panel shows.
const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
function select(tab: HTMLButtonElement): void {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    (document.getElementById(t.getAttribute("aria-controls") ?? "") as HTMLElement).hidden = !on;
  }
}
for (const t of tabs) {
  t.addEventListener("click", () => select(t));
  t.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(t);
    const next = e.key === "ArrowRight" ? tabs[(i + 1) % tabs.length] : e.key === "ArrowLeft" ? tabs[(i + tabs.length - 1) % tabs.length] : undefined;
    if (next) {
      select(next);
      next.focus();
    }
  });
}

function general(): void {
  panel("general").innerHTML = html`<h2>General</h2>
    <div class="setting"><div><b>Workspace name</b><p id="ws-name">${s.workspace_name}</p></div><button type="button" id="rename-open">Rename</button></div>
    <form id="general-form">
      <label for="timezone">Time zone</label>
      <select id="timezone" name="timezone">${s.timezones.map((z) => html`<option ${z === s.timezone ? html`selected` : ""}>${z}</option>`)}</select>
      <label for="language">Language</label>
      <select id="language" name="language">${["English", "Deutsch", "Español", "Français", "Português"].map((l) => html`<option ${l === s.language ? html`selected` : ""}>${l}</option>`)}</select>
      <p><button class="primary">Save changes</button></p>
    </form>`.text;
  (document.getElementById("ws") as HTMLElement).textContent = s.workspace_name;
}

// Two kinds of switch: a button with role=switch (Headless UI style), and a visually hidden
// checkbox with a styled label.
function notifications(): void {
  const n = s.notifications;
  panel("notifications").innerHTML = html`<h2>Email notifications</h2>
    <div class="setting"><div><b id="digest-label">Weekly digest</b><p class="muted">A summary of your workspace every Monday.</p></div>
      <button type="button" class="switch" role="switch" aria-checked="${n.digest}" aria-labelledby="digest-label" data-key="digest"></button></div>
    <div class="setting"><div><b id="mentions-label">Mentions</b><p class="muted">When someone mentions you.</p></div>
      <button type="button" class="switch" role="switch" aria-checked="${n.mentions}" aria-labelledby="mentions-label" data-key="mentions"></button></div>
    <div class="setting"><div><b>Product news</b><p class="muted">New features, at most once a month.</p></div>
      <span><input type="checkbox" id="product-news" class="visually-hidden" ${n.product_news ? html`checked` : ""}><label for="product-news" class="switch" title="Product news"><span class="visually-hidden">Product news</span></label></span></div>
    <p><button class="primary" type="button" id="save-notifications">Save notification settings</button></p>`.text;
}

function appearance(): void {
  panel("appearance").innerHTML = html`<h2>Appearance</h2><p class="muted">Applies to every device you sign in on.</p>
    <div class="setting"><b>Theme</b><theme-picker value="${s.theme}"></theme-picker></div>`.text;
}

function security(): void {
  panel("security").innerHTML = html`<h2>API keys</h2>
    <table class="keys"><thead><tr><th>Name</th><th>Created</th><th></th></tr></thead><tbody>
    ${s.api_keys.map(
      (k) => html`<tr class="${k.revoked ? "revoked" : ""}"><td>${k.name}</td><td>${k.created}</td>
        <td>${k.revoked ? "Revoked" : html`<button type="button" class="revoke" data-name="${k.name}" aria-label="Revoke key ${k.name}">Revoke</button>`}</td></tr>`,
    )}</tbody></table>`.text;
}

async function load(): Promise<void> {
  s = await api<Settings>("GET", "/api/settings");
  general();
  notifications();
  appearance();
  security();
}

document.addEventListener("submit", async (e) => {
  const form = e.target as HTMLFormElement;
  if (form.id !== "general-form") return;
  e.preventDefault();
  await api("PATCH", "/api/settings/general", { timezone: field(form, "timezone"), language: field(form, "language") });
  toast("Settings saved");
});

document.addEventListener("click", async (e) => {
  const t = e.target as Element;
  const sw = t.closest("button.switch[role=switch]");
  if (sw) sw.setAttribute("aria-checked", String(sw.getAttribute("aria-checked") !== "true"));
  if (t.closest("#save-notifications")) {
    const on = (key: string) => document.querySelector(`[data-key=${key}]`)?.getAttribute("aria-checked") === "true";
    await api("PATCH", "/api/settings/notifications", { digest: on("digest"), mentions: on("mentions"), product_news: (document.getElementById("product-news") as HTMLInputElement).checked });
    toast("Notification settings saved");
  }
  const revoke = t.closest<HTMLButtonElement>("button.revoke");
  if (revoke && confirm(`Revoke the key ${revoke.dataset.name}? Apps using it stop working.`)) {
    s = await api<Settings>("POST", `/api/keys/${encodeURIComponent(revoke.dataset.name ?? "")}/revoke`);
    security();
    toast(`Key ${revoke.dataset.name} revoked`);
  }
  if (t.closest("#rename-open")) {
    const dialog = document.getElementById("rename") as HTMLDialogElement;
    (document.getElementById("new-name") as HTMLInputElement).value = s.workspace_name;
    (document.getElementById("rename-error") as HTMLElement).textContent = "";
    dialog.showModal();
  }
});

document.addEventListener("change", async (e) => {
  const picker = (e.target as Element).closest("theme-picker") as (HTMLElement & { value: string }) | null;
  if (!picker) return;
  await api("PATCH", "/api/settings/theme", { theme: picker.value });
  toast(`Theme: ${picker.value}`);
});

const dialog = document.getElementById("rename") as HTMLDialogElement;
document.getElementById("rename-form")?.addEventListener("submit", async (e) => {
  const submitter = (e as SubmitEvent).submitter as HTMLButtonElement | null;
  if (submitter?.value !== "save") return;
  e.preventDefault();
  try {
    s = await api<Settings>("PATCH", "/api/settings/workspace", { name: field(e.target as HTMLFormElement, "name") });
    dialog.close();
    general();
    toast("Workspace renamed");
  } catch (err) {
    (document.getElementById("rename-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Could not rename";
  }
});

void load();
