import { api, ApiError, html } from "../_shared/kit.js";

interface Application {
  reference: string;
  applicant: { email: string };
}

const form = document.getElementById("permit") as HTMLFormElement;
const summary = document.getElementById("error-summary") as HTMLElement;
const streets = document.getElementById("group-streets") as HTMLElement;

// A saved draft fills the form (and may already hold an uploaded site plan).
async function loadDraft(): Promise<void> {
  const draft = await api<Record<string, unknown>>("GET", "/api/draft");
  for (const [k, v] of Object.entries(draft)) {
    if (k === "site_plan") {
      (document.getElementById("draft-file") as HTMLElement).textContent = `Already uploaded: ${(v as { name: string }).name}. Choose a file only to replace it.`;
      continue;
    }
    const el = form.elements.namedItem(k);
    if (el instanceof RadioNodeList) {
      for (const r of el) if (r instanceof HTMLInputElement) r.checked = r.value === v;
    } else if (el instanceof HTMLInputElement && el.type === "checkbox") el.checked = v === el.value;
    else if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) el.value = String(v);
  }
  showStreets();
}

function showStreets(): void {
  streets.hidden = (form.elements.namedItem("road_closure") as RadioNodeList).value !== "yes";
}
form.addEventListener("change", showStreets);

function showErrors(errors: Record<string, string>): void {
  for (const el of form.querySelectorAll(".invalid")) el.classList.remove("invalid");
  for (const el of form.querySelectorAll(".field-error")) el.textContent = "";
  const entries = Object.entries(errors);
  summary.hidden = entries.length === 0;
  summary.innerHTML = html`<h2>There is a problem</h2>${entries.map(([k, msg]) => html`<a href="#group-${k}">${msg}</a>`)}`.text;
  for (const [k, msg] of entries) {
    document.getElementById(`group-${k}`)?.classList.add("invalid");
    const p = document.getElementById(`${k}-error`);
    if (p) p.textContent = msg;
  }
  if (entries.length) {
    summary.focus();
    summary.scrollIntoView({ block: "start" });
  }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const a = await api<Application>("POST", "/api/applications", new FormData(form));
    (document.getElementById("app") as HTMLElement).innerHTML = html`<div class="panel-ok"><h1>Application submitted</h1>Your reference number<strong>${a.reference}</strong></div>
      <p>We have sent a confirmation to ${a.applicant.email}. We aim to decide within 10 working days.</p>`.text;
    scrollTo(0, 0);
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) showErrors(err.data.errors as Record<string, string>);
    else showErrors({ form: err instanceof Error ? err.message : "Something went wrong" });
  }
});

void loadDraft();
