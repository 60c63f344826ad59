import { ApiError, api, html, mount, on, startRouter, toast } from "../_shared/kit.js";
import type { Payee, Transfer } from "./server.js";

interface State {
  signed_in: boolean;
  payees: Payee[];
  paper_statements: boolean;
  partner: string;
  transfers: Transfer[];
}

let state = await api<State>("GET", "/api/state");

function signIn(): void {
  mount(html`<h1>Sign in</h1><form class="panel" id="signin">
    <label for="username">Username</label><input id="username" name="username" autocomplete="username">
    <label for="code">One-time code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code">
    <p class="error" id="error" role="alert"></p>
    <p><button class="primary" type="submit">Sign in</button></p></form>`);
  document.getElementById("signin")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    try {
      state = await api<State>("POST", "/api/signin", { username: (form.elements.namedItem("username") as HTMLInputElement).value, code: (form.elements.namedItem("code") as HTMLInputElement).value });
      mount(html`<h1>Welcome back, Ada</h1><p>You are signed in.</p>`);
    } catch (err) {
      const box = document.getElementById("error");
      if (box) box.textContent = err instanceof ApiError ? err.message : String(err);
    }
  });
}

function payees(): void {
  mount(html`<h1>Payees</h1><ul class="panel payees">${state.payees.map(
    (p) => html`<li><span>${p.name} <span class="muted">${p.account}</span></span><button type="button" data-action="remove" data-id="${p.id}" aria-label="Remove ${p.name}">Remove</button></li>`,
  )}</ul>`);
}

on("click", "remove", async (el) => {
  const name = state.payees.find((p) => p.id === el.dataset.id)?.name ?? "";
  state = await api<State>("DELETE", `/api/payees/${el.dataset.id}`);
  payees();
  toast(`${name} removed`);
});

function statements(): void {
  mount(html`<h1>Statements</h1><div class="panel"><h2>October statement</h2>
    <p>Opening balance £1,902.75 · Closing balance <b>£2,481.30</b></p>
    <p>Delivery: <b id="delivery">${state.paper_statements ? "Paper" : "Online only"}</b></p>
    <form id="paper"><button type="submit">Switch to paper statements</button></form></div>`);
  document.getElementById("paper")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    state = await api<State>("POST", "/api/paper-statements");
    statements();
    toast("You will get paper statements");
  });
}

function savings(): void {
  mount(html`<h1>Savings</h1><div class="panel"><p>Easy Saver: <b>4.10% AER</b> variable, on balances up to £250,000.</p>
    <h2>Offers from our partners</h2>${state.partner ? html`<iframe class="partner" title="Partner offers" src="${state.partner}/"></iframe>` : ""}</div>`);
}

// A partner frame that loads says so, as ad frames report their impressions.
addEventListener("message", (e: MessageEvent<{ type?: string }>) => {
  if (state.partner && e.origin === state.partner && e.data?.type === "partner-loaded") void api("POST", "/api/partner-seen");
});

function recovery(): void {
  mount(html`<h1>Security</h1><form class="panel" id="recovery">
    <p>Type the recovery phrase from your recovery sheet to confirm you still have it.</p>
    <label for="phrase">Recovery phrase</label><input id="phrase" name="phrase" type="text" autocomplete="off">
    <p>You typed: <output id="echo" for="phrase"></output></p>
    <p><button class="primary" type="submit">Save phrase</button></p></form>`);
  const input = document.getElementById("phrase") as HTMLInputElement;
  input.addEventListener("input", () => {
    const echo = document.getElementById("echo");
    if (echo) echo.textContent = input.value;
  });
  document.getElementById("recovery")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    state = await api<State>("POST", "/api/recovery", { phrase: input.value });
    toast("Recovery phrase saved");
  });
}

function transfer(): void {
  mount(html`<h1>Transfer to Ada Lovelace</h1><form class="panel" id="transfer">
    <label for="amount">Amount (£)</label><input id="amount" name="amount" inputmode="decimal">
    <p><button class="primary" type="submit">Send transfer</button></p>
    <h2>Sent</h2><ul id="sent">${state.transfers.map((t) => html`<li>£${t.amount} to ${t.to}</li>`)}</ul></form>`);
  document.getElementById("transfer")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const amount = (document.getElementById("amount") as HTMLInputElement).value;
    state = await api<State>("POST", "/api/transfers", { amount });
    transfer();
    toast(`Transfer of £${amount} sent`);
  });
}

const views: Record<string, () => void> = { "/signin": signIn, "/payees": payees, "/statements": statements, "/savings": savings, "/recovery": recovery, "/transfer": transfer };
startRouter((path) => (views[path] ?? payees)());
