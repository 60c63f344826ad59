/**
 * The fixture site of the extension's end-to-end tests, built the way shops are: a product
 * grid of `<div>` cards whose buttons are handled by one delegated listener, a cart kept on
 * the server (the badge shows what the server answered), a checkout form that posts with
 * fetch and replaces itself with the order's confirmation, and an unrelated page (the user's
 * notes) that the agent must never touch, and a second sign-in step that checks a one-time code
 * (TOTP) on the server. `/api/state` is the server's ground truth.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { parseTotpSeed, totpCode } from "@baton/sdk/totp";

/** The shop's authenticator key for its second sign-in step, as a site shows it when it sets up an authenticator app. */
export const shopTotpSeed = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

/** A running shop. */
export interface Shop {
  readonly url: string;
  /** What the server holds. */
  state(): { cart: string[]; orders: { id: number; email: string; items: string[] }[]; notesWrites: number; codes: { accepted: string[]; refused: string[] } };
  reset(): void;
  close(): Promise<void>;
}

const products = [
  { sku: "mug-blue", name: "Blue mug", price: "€12", color: "#3b82f6" },
  { sku: "mug-red", name: "Red mug", price: "€12", color: "#ef4444" },
  { sku: "tote", name: "Canvas tote", price: "€18", color: "#d6b98c" },
  { sku: "notebook", name: "Dot notebook", price: "€9", color: "#10b981" },
];

const style = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 0; color: #1f2937; background: #fafafa; }
header { display: flex; align-items: center; gap: 24px; padding: 14px 28px; background: #fff; border-bottom: 1px solid #e5e7eb; }
header .logo { font-weight: 800; font-size: 20px; letter-spacing: -0.02em; }
header nav { display: flex; gap: 16px; flex: 1; }
header a { color: inherit; text-decoration: none; }
.badge { display: inline-block; min-width: 20px; padding: 0 6px; border-radius: 10px; background: #111827; color: #fff; font-size: 12px; text-align: center; }
main { padding: 24px 28px; max-width: 980px; }
.grid { display: grid; grid-template-columns: repeat(4, 1fr); gap: 18px; }
.card { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 14px; }
.card .img { height: 110px; border-radius: 8px; margin-bottom: 10px; }
.card h3 { margin: 0 0 4px; font-size: 15px; }
.card .price { color: #6b7280; margin-bottom: 10px; }
button { font: inherit; cursor: pointer; border-radius: 8px; border: 0; padding: 8px 12px; background: #111827; color: #fff; }
form { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 20px; max-width: 420px; display: grid; gap: 12px; }
input { font: inherit; padding: 8px 10px; border: 1px solid #d1d5db; border-radius: 8px; }
.done { background: #ecfdf5; border: 1px solid #a7f3d0; padding: 16px; border-radius: 12px; }
`;

function page(title: string, body: string, cartCount: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${style}</style></head><body>
<header><span class="logo">Mugshop</span><nav><a href="/">Shop</a><a href="/checkout">Checkout</a></nav>
<a href="/checkout" id="cart">Cart <span class="badge" id="count">${cartCount}</span></a></header>
<main>${body}</main></body></html>`;
}

function shopPage(cartCount: number): string {
  const cards = products
    .map(
      (p) => `<div class="card"><div class="img" style="background:${p.color}"></div><h3>${p.name}</h3><div class="price">${p.price}</div>
<button class="add" data-sku="${p.sku}" aria-label="Add ${p.name} to cart">Add to cart</button></div>`,
    )
    .join("");
  return page(
    "Mugshop",
    `<h1>Mugs and more</h1><div class="grid" id="grid">${cards}</div>
<script>
document.getElementById("grid").addEventListener("click", async (e) => {
  const b = e.target.closest("button.add");
  if (!b) return;
  const r = await fetch("/api/cart", { method: "POST", body: JSON.stringify({ sku: b.dataset.sku }) });
  const { count } = await r.json();
  document.getElementById("count").textContent = String(count);
  b.textContent = "Added";
});
</script>`,
    cartCount,
  );
}

function checkoutPage(cart: string[]): string {
  const lines = cart.map((sku) => `<li>${products.find((p) => p.sku === sku)?.name ?? sku}</li>`).join("");
  return page(
    "Checkout · Mugshop",
    `<h1>Checkout</h1><ul id="lines">${lines || "<li>Your cart is empty</li>"}</ul>
<form id="order"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email">
<button type="submit">Place order</button></form>
<script>
document.getElementById("order").addEventListener("submit", async (e) => {
  e.preventDefault();
  const email = document.getElementById("email").value;
  const r = await fetch("/api/order", { method: "POST", body: JSON.stringify({ email }) });
  const o = await r.json();
  const done = document.createElement("p");
  done.className = "done";
  done.setAttribute("role", "status");
  done.textContent = o.error ? o.error : "Order #" + o.id + " placed for " + o.email;
  e.target.replaceWith(done);
});
</script>`,
    cart.length,
  );
}

const notesPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>My notes</title></head><body style="font:15px system-ui;padding:24px">
<h1>Private notes</h1><textarea id="notes" aria-label="Notes" rows="6" cols="50">Dentist on Tuesday</textarea>
<button id="save">Save notes</button>
<script>document.getElementById("save").onclick = () => fetch("/api/notes", { method: "POST", body: document.getElementById("notes").value });</script>
</body></html>`;

async function body(req: IncomingMessage): Promise<string> {
  let s = "";
  for await (const c of req) s += String(c);
  return s;
}

/** A sign-in form: the secrets tests type a password here; `frame` embeds another site's page beside it (an ad, a widget). */
const loginPage = (frame: string | null) =>
  page(
    "Sign in · Mugshop",
    `<h1>Sign in</h1><form id="login"><label for="user">Email</label><input id="user" name="user" type="email" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button></form>${frame?.startsWith("http://127.0.0.1:") ? `<iframe src="${frame}" title="Partner offer" width="440" height="120"></iframe>` : ""}`,
    0,
  );

/** A returns form with a file input: the upload tests attach a receipt here. */
const returnsPage = page(
  "Returns · Mugshop",
  `<h1>Return an item</h1><form id="returns"><label for="receipt">Receipt</label><input id="receipt" type="file"></form>`,
  0,
);

/** The second sign-in step: a one-time code from the authenticator app, checked by the server. */
const twoFactorPage = page(
  "Two-step sign-in · Mugshop",
  `<h1>Two-step sign-in</h1><form id="totp"><label for="code">One-time code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code">
<button type="submit">Verify</button></form>
<script>
document.getElementById("totp").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await fetch("/api/totp", { method: "POST", body: JSON.stringify({ code: document.getElementById("code").value }) });
  const { ok } = await r.json();
  const done = document.createElement("p");
  done.className = "done";
  done.setAttribute("role", "status");
  done.textContent = ok ? "Signed in: the code was right." : "Wrong code.";
  e.target.replaceWith(done);
});
</script>`,
  0,
);

/** Whether a code is the seed's code now or one period ago, as sites allow for a code typed as it changed. */
function rightCode(code: string): boolean {
  const seed = parseTotpSeed(shopTotpSeed);
  const now = Date.now();
  return [now, now - seed.period * 1000].some((at) => totpCode(seed, at) === code);
}

/** Starts the shop on 127.0.0.1. */
export async function startShop(): Promise<Shop> {
  let cart: string[] = [];
  let orders: { id: number; email: string; items: string[] }[] = [];
  let notesWrites = 0;
  let codes = { accepted: [] as string[], refused: [] as string[] };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const html = (s: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(s);
    const json = (v: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(v));
    if (path === "/") return html(shopPage(cart.length));
    if (path === "/checkout") return html(checkoutPage(cart));
    if (path === "/notes") return html(notesPage);
    if (path === "/returns") return html(returnsPage);
    if (path === "/login") return html(loginPage(url.searchParams.get("frame")));
    if (path === "/2fa") return html(twoFactorPage);
    if (path === "/api/totp" && req.method === "POST") {
      const { code } = JSON.parse(await body(req)) as { code: string };
      const ok = rightCode(code);
      (ok ? codes.accepted : codes.refused).push(code);
      return json({ ok });
    }
    if (path === "/api/cart" && req.method === "POST") {
      const { sku } = JSON.parse(await body(req)) as { sku: string };
      cart.push(sku);
      // A real backend takes a moment.
      await new Promise((r) => setTimeout(r, 60));
      return json({ count: cart.length });
    }
    if (path === "/api/order" && req.method === "POST") {
      const { email } = JSON.parse(await body(req)) as { email: string };
      if (!email.includes("@")) return json({ error: "Enter a valid email address." });
      const order = { id: 1001 + orders.length, email, items: cart };
      orders.push(order);
      cart = [];
      return json(order);
    }
    if (path === "/api/notes" && req.method === "POST") {
      await body(req);
      notesWrites++;
      return json({ ok: true });
    }
    if (path === "/api/state") return json({ cart, orders, notesWrites, codes });
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    state: () => ({ cart: [...cart], orders: orders.map((o) => ({ ...o, items: [...o.items] })), notesWrites, codes: { accepted: [...codes.accepted], refused: [...codes.refused] } }),
    reset: () => {
      codes = { accepted: [], refused: [] };
      cart = [];
      orders = [];
      notesWrites = 0;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
