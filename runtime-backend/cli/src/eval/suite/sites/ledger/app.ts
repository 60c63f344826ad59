import { api, html, mount, startRouter, toast } from "../_shared/kit.js";
import type { Invoice } from "./server.js";

let invoices: Invoice[] = [];

function list(): void {
  mount(html`<h1>Invoices</h1><table class="invoices"><thead><tr><th>Number</th><th>Ref</th><th>To</th><th>Date</th><th>Status</th><th>Amount</th></tr></thead><tbody id="rows">${invoices.map(
    (i) => html`<tr><td><a href="/invoices/${i.number}">${i.number}</a></td><td>${i.ref}</td><td class="to"><a href="/contacts/${i.ref}">${i.client}</a></td><td>${i.date}</td><td>${i.status}</td><td>${i.amount}</td></tr>`,
  )}</tbody></table>`);
  // Each row listens itself (a framework's @click on the <tr>): a click selects the row.
  for (const tr of document.querySelectorAll<HTMLElement>("#rows tr")) {
    tr.addEventListener("click", (e) => {
      if ((e.target as Element).closest("a")) return;
      tr.classList.toggle("selected");
    });
  }
}

function detail(number: string): void {
  const inv = invoices.find((i) => i.number === number);
  if (!inv) {
    mount(html`<h1>No such invoice</h1><a href="/">All invoices</a>`);
    return;
  }
  mount(html`<p><a href="/">All invoices</a></p><h1>Invoice ${inv.number}</h1><p>To ${inv.client}, ${inv.date}: ${inv.amount}</p><p>Status: <b id="status">${inv.status}</b></p><p><button class="primary" id="approve">Approve</button></p>`);
  document.getElementById("approve")?.addEventListener("click", async () => {
    invoices = (await api<{ invoices: Invoice[] }>("POST", `/api/invoices/${inv.number}/approve`)).invoices;
    detail(number);
    toast(`Invoice ${number} approved`);
  });
}

invoices = (await api<{ invoices: Invoice[] }>("GET", "/api/state")).invoices;
startRouter((path) => {
  const m = /^\/invoices\/([\w-]+)$/.exec(path);
  if (m) detail(m[1]!);
  else if (path.startsWith("/contacts/")) mount(html`<p><a href="/">All invoices</a></p><h1>Contact ${path.slice(10)}</h1>`);
  else list();
});
