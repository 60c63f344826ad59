import { api, ApiError, debounce, field, html, type Html, mount, navigate, on, startRouter, toast } from "../_shared/kit.js";
import type { Line, Product } from "./server.js";

interface Cart {
  lines: Line[];
  coupon: string;
  subtotal: number;
  discount: number;
  total: number;
}

const hues: Record<string, string> = { Mugs: "#e8c9a8", Cups: "#d9d3ec", Teapots: "#bfd8c8", Linen: "#efe2c4", Coffee: "#d2c1b3" };
const money = (n: number) => `€${n.toFixed(2)}`;

async function refreshCount(): Promise<Cart> {
  const cart = await api<Cart>("GET", "/api/cart");
  const el = document.getElementById("cart-count");
  if (el) el.textContent = String(cart.lines.reduce((n, l) => n + l.qty, 0));
  return cart;
}

// Home: filters and a grid of product cards. A card is a clickable <div> (one delegated
// listener on the document, as frameworks do); its title is also a link.
let listing = { q: "", category: "", sort: "" };

function card(p: Product): Html {
  return html`<div class="card" data-action="open-product" data-id="${p.id}">
    <div class="swatch" style="background:${hues[p.category] ?? "#ddd"}"></div>
    <h3><a href="/product/${p.id}">${p.name}</a></h3>
    <div class="muted">${p.category}</div>
    <div class="price">${money(p.price)}</div>
  </div>`;
}

async function home(): Promise<void> {
  const qs = new URLSearchParams(Object.entries(listing).filter(([, v]) => v));
  const { products, categories } = await api<{ products: Product[]; categories: string[] }>("GET", `/api/products?${qs}`);
  // The filters are rendered once and kept (as a framework keeps unchanged elements); only the
  // heading, the count and the grid follow the listing.
  if (!document.getElementById("grid")) {
    mount(html`<h1 id="listing-title"></h1>
      <div class="filters">
        <div><label for="category">Category</label>
          <select id="category" data-action="filter">
            <option value="">All categories</option>
            ${categories.map((c) => html`<option value="${c}" ${c === listing.category ? html`selected` : ""}>${c}</option>`)}
          </select></div>
        <div><label for="sort">Sort by</label>
          <select id="sort" data-action="filter">
            <option value="">Featured</option>
            <option value="price-asc" ${listing.sort === "price-asc" ? html`selected` : ""}>Price: low to high</option>
            <option value="price-desc" ${listing.sort === "price-desc" ? html`selected` : ""}>Price: high to low</option>
          </select></div>
        <span class="muted" id="listing-count"></span>
      </div>
      <div class="grid" id="grid"></div>`);
  }
  (document.getElementById("listing-title") as HTMLElement).textContent = listing.q ? `Results for “${listing.q}”` : "All products";
  (document.getElementById("listing-count") as HTMLElement).textContent = `${products.length} product(s)`;
  (document.getElementById("grid") as HTMLElement).innerHTML = products.map(card).join("");
}

on("change", "filter", () => {
  listing = { ...listing, category: (document.getElementById("category") as HTMLSelectElement).value, sort: (document.getElementById("sort") as HTMLSelectElement).value };
  void home();
});

on("click", "open-product", (el, e) => {
  if ((e.target as Element).closest("a")) return; // the title link routes by itself
  navigate(`/product/${el.dataset.id}`);
});

const search = debounce((q: string) => {
  listing = { ...listing, q };
  if (location.pathname !== "/") navigate("/");
  else void home();
}, 250);
document.getElementById("q")?.addEventListener("input", (e) => search((e.target as HTMLInputElement).value.trim()));

// Product page: colour select, quantity stepper (icon buttons), add to cart.
async function productPage(id: string): Promise<void> {
  let p: Product;
  try {
    p = await api<Product>("GET", `/api/products/${id}`);
  } catch {
    mount(html`<h1>Not found</h1><p><a href="/">Back to the shop</a></p>`);
    return;
  }
  mount(html`<div class="product">
    <div class="swatch" style="background:${hues[p.category] ?? "#ddd"}"></div>
    <form id="buy" data-id="${p.id}">
      <p class="muted"><a href="/">Shop</a> › ${p.category}</p>
      <h1>${p.name}</h1>
      <p class="price">${money(p.price)}</p>
      <p>${p.blurb}</p>
      ${p.colors.length ? html`<label for="color">Colour</label><select id="color" name="color"><option value="">Choose a colour</option>${p.colors.map((c) => html`<option>${c}</option>`)}</select>` : ""}
      <label for="qty">Quantity</label>
      <div class="stepper">
        <button type="button" class="icon" data-action="step" data-by="-1" aria-label="Decrease quantity"><i class="i i-minus"></i></button>
        <input id="qty" name="qty" value="1" inputmode="numeric">
        <button type="button" class="icon" data-action="step" data-by="1" aria-label="Increase quantity"><i class="i i-plus"></i></button>
      </div>
      <p><button class="primary" type="submit">Add to cart</button></p>
      <p class="error" id="buy-error" role="alert"></p>
    </form>
  </div>`);
}

on("click", "step", (el) => {
  const input = document.getElementById("qty") as HTMLInputElement;
  input.value = String(Math.min(20, Math.max(1, (Number(input.value) || 1) + Number(el.dataset.by))));
});

document.addEventListener("submit", async (e) => {
  const form = e.target as HTMLFormElement;
  if (form.id === "buy") {
    e.preventDefault();
    try {
      await api("POST", "/api/cart/lines", { product: form.dataset.id, color: field(form, "color"), qty: Number(field(form, "qty")) });
      await refreshCount();
      toast("Added to cart");
      (document.getElementById("buy-error") as HTMLElement).textContent = "";
    } catch (err) {
      (document.getElementById("buy-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Something went wrong";
    }
  } else if (form.id === "coupon") {
    e.preventDefault();
    try {
      await api("POST", "/api/cart/coupon", { code: field(form, "code") });
      toast("Coupon applied");
      await cartPage();
    } catch (err) {
      (document.getElementById("coupon-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Something went wrong";
    }
  }
});

// Cart: quantities, remove buttons with only an icon (named by aria-label), a coupon form.
async function cartPage(): Promise<void> {
  const cart = await refreshCount();
  if (!cart.lines.length) {
    mount(html`<h1>Your cart</h1><p>Your cart is empty. <a href="/">Keep shopping</a></p>`);
    return;
  }
  mount(html`<h1>Your cart</h1>
    <table class="cart"><thead><tr><th>Item</th><th>Colour</th><th>Quantity</th><th>Price</th><th></th></tr></thead><tbody>
    ${cart.lines.map(
      (l) => html`<tr>
        <td><a href="/product/${l.product}">${l.name}</a></td><td>${l.color || "—"}</td>
        <td><input type="number" min="1" max="20" value="${l.qty}" aria-label="Quantity of ${l.name}" data-action="qty" data-line="${l.line}" style="width:70px"></td>
        <td>${money(l.price * l.qty)}</td>
        <td><button class="icon" data-action="remove" data-line="${l.line}" aria-label="Remove ${l.name}" title="Remove"><i class="i i-trash"></i></button></td>
      </tr>`,
    )}
    </tbody></table>
    <div class="row" style="justify-content:space-between;margin-top:16px;align-items:start">
      <form id="coupon" class="panel"><label for="code">Coupon code</label><div class="row"><input id="code" name="code"><button>Apply</button></div><p class="error" id="coupon-error" role="alert"></p></form>
      <div class="panel">
        <div>Subtotal: ${money(cart.subtotal)}</div>
        ${cart.coupon ? html`<div>Coupon ${cart.coupon}: −${money(cart.discount)}</div>` : ""}
        <div class="price">Total: ${money(cart.total)}</div>
        <p><a class="btn primary" href="/checkout">Check out</a></p>
      </div>
    </div>`);
}

on("click", "remove", async (el) => {
  await api("DELETE", `/api/cart/lines/${el.dataset.line}`);
  await cartPage();
});
on("change", "qty", async (el) => {
  await api("PATCH", `/api/cart/lines/${el.dataset.line}`, { qty: Number((el as HTMLInputElement).value) });
  await cartPage();
});

// Checkout: address, delivery, payment (a card widget from another origin, in an iframe),
// review and place the order.
interface Checkout {
  step: number;
  address: Record<string, string>;
  shipping: string;
  payment: string;
  last4: string;
}
let checkout: Checkout = { step: 1, address: {}, shipping: "standard", payment: "", last4: "" };
const payOrigin = () => `http://localhost:${location.port}`;

function steps(now: number): Html {
  return html`<div class="steps">${["Address", "Delivery", "Payment", "Review"].map((s, i) => html`<span class="${i + 1 === now ? "now" : ""}">${i + 1}. ${s}</span>`)}</div>`;
}

async function checkoutPage(): Promise<void> {
  const cart = await refreshCount();
  if (!cart.lines.length) {
    mount(html`<h1>Checkout</h1><p>Your cart is empty. <a href="/">Keep shopping</a></p>`);
    return;
  }
  const a = checkout.address;
  const body =
    checkout.step === 1
      ? html`<form id="address" class="panel" data-action="next">
          <h2>Shipping address</h2>
          <label for="name">Full name</label><input id="name" name="name" value="${a.name ?? ""}" required autocomplete="name">
          <label for="street">Street address</label><input id="street" name="street" value="${a.street ?? ""}" required>
          <div class="row"><div><label for="city">City</label><input id="city" name="city" value="${a.city ?? ""}" required></div>
          <div><label for="postcode">Postcode</label><input id="postcode" name="postcode" value="${a.postcode ?? ""}" required></div></div>
          <label for="country">Country</label>
          <select id="country" name="country">${["France", "Germany", "Portugal", "Spain", "United Kingdom"].map((c) => html`<option ${c === (a.country ?? "France") ? html`selected` : ""}>${c}</option>`)}</select>
          <p><button class="primary">Continue to delivery</button></p></form>`
      : checkout.step === 2
        ? html`<form id="delivery" class="panel" data-action="next"><h2>Delivery</h2>
            <label><input type="radio" name="shipping" value="standard" ${checkout.shipping === "standard" ? html`checked` : ""}> Standard (3–5 days) — free</label>
            <label><input type="radio" name="shipping" value="express" ${checkout.shipping === "express" ? html`checked` : ""}> Express (next day) — €9.00</label>
            <p><button type="button" data-action="back">Back</button> <button class="primary">Continue to payment</button></p></form>`
        : checkout.step === 3
          ? html`<div class="panel"><h2>Payment</h2><p class="muted">Card details are handled by our payment provider.</p>
              <iframe class="pay" title="Secure card payment" src="${payOrigin()}/pay/card.html"></iframe>
              <p class="error" id="pay-error" role="alert"></p>
              <p><button type="button" data-action="back">Back</button> <button class="primary" type="button" data-action="pay">Continue to review</button></p></div>`
          : html`<div class="panel"><h2>Review your order</h2>
              <ul>${cart.lines.map((l) => html`<li>${l.qty} × ${l.name}${l.color ? ` (${l.color})` : ""} — ${money(l.qty * l.price)}</li>`)}</ul>
              <p>Ship to ${a.name}, ${a.street}, ${a.postcode} ${a.city}, ${a.country} · ${checkout.shipping === "express" ? "Express" : "Standard"} delivery</p>
              <p>Card ending ${checkout.last4}</p>
              <p class="price">Total: ${money(cart.total + (checkout.shipping === "express" ? 9 : 0))}</p>
              <p class="error" id="order-error" role="alert"></p>
              <p><button type="button" data-action="back">Back</button> <button class="primary" type="button" data-action="place-order">Place order</button></p></div>`;
  mount(html`<h1>Checkout</h1>${steps(checkout.step)}${body}`);
}

document.addEventListener("submit", (e) => {
  const form = e.target as HTMLFormElement;
  if (form.dataset.action !== "next") return;
  e.preventDefault();
  if (form.id === "address") {
    checkout.address = Object.fromEntries(["name", "street", "city", "postcode", "country"].map((k) => [k, field(form, k)]));
  } else {
    checkout.shipping = (form.querySelector("input[name=shipping]:checked") as HTMLInputElement | null)?.value ?? "standard";
  }
  checkout.step++;
  void checkoutPage();
});
on("click", "back", () => {
  checkout.step--;
  void checkoutPage();
});

// The card widget answers a "tokenise" message with a token or an error.
on("click", "pay", () => {
  const frame = document.querySelector("iframe.pay") as HTMLIFrameElement | null;
  frame?.contentWindow?.postMessage({ type: "tokenise" }, payOrigin());
});
addEventListener("message", (e: MessageEvent<{ type: string; token?: string; last4?: string; error?: string }>) => {
  if (e.origin !== payOrigin()) return;
  if (e.data.type === "token" && e.data.token) {
    checkout.payment = e.data.token;
    checkout.last4 = e.data.last4 ?? "";
    checkout.step = 4;
    void checkoutPage();
  } else if (e.data.type === "error") {
    (document.getElementById("pay-error") as HTMLElement).textContent = e.data.error ?? "Payment failed";
  }
});

on("click", "place-order", async () => {
  try {
    const order = await api<{ id: string }>("POST", "/api/orders", { address: checkout.address, shipping: checkout.shipping, payment: checkout.payment });
    checkout = { step: 1, address: {}, shipping: "standard", payment: "", last4: "" };
    navigate(`/orders/${order.id}`);
  } catch (err) {
    (document.getElementById("order-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Something went wrong";
  }
});

async function orderPage(id: string): Promise<void> {
  await refreshCount();
  const o = await api<{ id: string; total: number }>("GET", `/api/orders/${id}`).catch(() => undefined);
  mount(o ? html`<h1>Thank you!</h1><p>Order #${o.id} is confirmed. Total charged: ${money(o.total)}.</p><p><a href="/">Back to the shop</a></p>` : html`<h1>No such order</h1>`);
}

startRouter(async (path) => {
  const [, first, id] = path.split("/");
  if (!first) await home();
  else if (first === "product" && id) await productPage(id);
  else if (first === "cart") await cartPage();
  else if (first === "checkout") await checkoutPage();
  else if (first === "orders" && id) await orderPage(id);
  else mount(html`<h1>Not found</h1>`);
  if (first !== "checkout") await refreshCount();
});
