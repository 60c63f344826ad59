import { api, ApiError, type Html, html, mount, navigate, startRouter, toast } from "../_shared/kit.js";
import type { Trip } from "./server.js";

interface Airport {
  code: string;
  city: string;
  name: string;
}
interface Flight {
  flight: string;
  departs: string;
  duration: string;
  stops: number;
  price: number;
}

const query = { from: "", to: "", date: "", adults: 1 };
const label = (a: Airport) => `${a.city} (${a.code})`;

// An airport field: an ARIA combobox whose options come from the server as you type; the
// chosen airport's code is kept apart from the text.
function combo(id: string, text: string): Html {
  return html`<div class="combo"><label for="${id}">${text}</label>
    <input id="${id}" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="${id}-list" autocomplete="off" placeholder="City or airport">
    <ul role="listbox" id="${id}-list" aria-label="${text} suggestions" hidden></ul></div>`;
}

function wireCombo(id: "from" | "to"): void {
  const input = document.getElementById(id) as HTMLInputElement;
  const list = document.getElementById(`${id}-list`) as HTMLUListElement;
  let options: Airport[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };
  const choose = (a: Airport) => {
    query[id] = a.code;
    input.value = label(a);
    close();
  };
  input.addEventListener("input", () => {
    query[id] = "";
    clearTimeout(timer);
    timer = setTimeout(async () => {
      options = (await api<{ airports: Airport[] }>("GET", `/api/airports?q=${encodeURIComponent(input.value)}`)).airports;
      list.innerHTML = options.map((a, i) => html`<li role="option" id="${id}-opt-${i}" data-i="${i}" aria-selected="false">${label(a)} · ${a.name}</li>`).join("");
      list.hidden = options.length === 0;
      input.setAttribute("aria-expanded", String(!list.hidden));
    }, 200);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && options[0] && !list.hidden) {
      e.preventDefault();
      choose(options[0]);
    } else if (e.key === "Escape") close();
  });
  list.addEventListener("click", (e) => {
    const li = (e.target as Element).closest<HTMLElement>("[role=option]");
    const a = options[Number(li?.dataset.i)];
    if (a) choose(a);
  });
  input.addEventListener("blur", () => setTimeout(close, 150));
}

function home(): void {
  mount(html`<section class="hero"><h1>Where to next?</h1>
    <form class="search" id="search">
      ${combo("from", "From")}
      ${combo("to", "To")}
      <div><label for="date">Depart</label><input id="date" type="date" min="2026-05-01"></div>
      <div><label>Passengers</label><div class="stepper" role="group" aria-label="Adults">
        <button type="button" class="icon" data-step="-1" aria-label="Remove an adult"><i class="i i-minus"></i></button>
        <output id="adults" aria-label="Adults">${query.adults}</output> adult(s)
        <button type="button" class="icon" data-step="1" aria-label="Add an adult"><i class="i i-plus"></i></button></div></div>
      <button class="primary">Search flights</button>
      <p class="error" id="search-error" role="alert"></p>
    </form></section>
    <h2>Popular right now</h2><p class="muted">Lisbon → Oslo from €89 · London → Rome from €64 · Porto → Reykjavik from €120</p>`);
  wireCombo("from");
  wireCombo("to");
  const form = document.getElementById("search") as HTMLFormElement;
  form.addEventListener("click", (e) => {
    const b = (e.target as Element).closest<HTMLElement>("[data-step]");
    if (!b) return;
    query.adults = Math.max(1, Math.min(9, query.adults + Number(b.dataset.step)));
    (document.getElementById("adults") as HTMLElement).textContent = String(query.adults);
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    query.date = (document.getElementById("date") as HTMLInputElement).value;
    const error = !query.from || !query.to ? "Choose both airports from the suggestions" : !query.date ? "Choose a departure date" : "";
    (document.getElementById("search-error") as HTMLElement).textContent = error;
    if (!error) navigate(`/results?${new URLSearchParams({ from: query.from, to: query.to, date: query.date, adults: String(query.adults) })}`);
  });
}

async function results(q: URLSearchParams): Promise<void> {
  try {
    const { flights } = await api<{ flights: Flight[] }>("GET", `/api/flights?${q}`);
    const adults = Number(q.get("adults") ?? 1);
    mount(html`<p><a href="/">← Change search</a></p><h1>${q.get("from")} → ${q.get("to")} · ${q.get("date")} · ${adults} adult(s)</h1>
      ${flights.map(
        (f) => html`<div class="flight"><div><b>${f.departs}</b><div class="muted">${f.flight}</div></div><div>${f.duration}</div><div>${f.stops ? "1 stop" : "Direct"}</div>
          <div class="price">€${f.price}<div class="muted" style="font-size:12px;font-weight:400">per adult</div></div>
          <button class="primary" data-flight="${f.flight}" aria-label="Select ${f.flight} at ${f.departs} for €${f.price}">Select</button></div>`,
      )}`);
    document.querySelectorAll<HTMLButtonElement>("[data-flight]").forEach((b) =>
      b.addEventListener("click", async () => {
        const sel = await api<{ flight: string; total: number }>("POST", "/api/selection", { from: q.get("from"), to: q.get("to"), date: q.get("date"), adults, flight: b.dataset.flight });
        mount(html`<h1>Trip summary</h1><p>${sel.flight} selected · total €${sel.total} for ${adults} adult(s).</p><p><button class="primary">Continue to passenger details</button></p>`);
      }),
    );
  } catch (err) {
    mount(html`<p class="error">${err instanceof ApiError ? err.message : "Something went wrong"}</p><p><a href="/">Back</a></p>`);
  }
}

async function trips(): Promise<void> {
  const { trips } = await api<{ trips: Trip[] }>("GET", "/api/trips");
  const fmt = (d: string) => new Date(`${d}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  mount(html`<h1>My trips</h1>${trips.map(
    (t) => html`<div class="trip ${t.status}"><div><b>${t.city}</b> · ${fmt(t.date)} · ${t.flight}</div>
      ${t.status === "cancelled" ? html`<span class="muted">Cancelled</span>` : html`<button data-cancel="${t.id}" data-city="${t.city}" aria-label="Cancel trip to ${t.city}">Cancel trip</button>`}</div>`,
  )}`);
}

document.addEventListener("click", (e) => {
  const b = (e.target as Element).closest<HTMLElement>("[data-cancel]");
  if (!b) return;
  const root = document.getElementById("modal-root") as HTMLElement;
  root.innerHTML = html`<div class="modal-backdrop"><div class="modal" role="alertdialog" aria-modal="true" aria-labelledby="m-title" aria-describedby="m-desc">
    <h2 id="m-title">Cancel your trip to ${b.dataset.city}?</h2><p id="m-desc">You get a voucher for the fare. This cannot be undone.</p>
    <p class="row"><button id="keep">Keep trip</button><button class="primary" id="confirm-cancel">Yes, cancel trip</button></p></div></div>`.text;
  (document.getElementById("keep") as HTMLElement).addEventListener("click", () => (root.innerHTML = ""));
  (document.getElementById("confirm-cancel") as HTMLElement).addEventListener("click", async () => {
    await api("POST", `/api/trips/${b.dataset.cancel}/cancel`);
    root.innerHTML = "";
    toast(`Trip to ${b.dataset.city} cancelled`);
    await trips();
  });
});

startRouter(async (path, q) => {
  if (path === "/results") await results(q);
  else if (path === "/trips") await trips();
  else if (path === "/profile") mount(html`<h1>Profile</h1><p>Ada Lovelace · ada@example.com</p>`);
  else home();
});
