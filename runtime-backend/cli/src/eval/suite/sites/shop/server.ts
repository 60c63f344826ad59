import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

/** A product of the shop's catalog. */
export interface Product {
  readonly id: string;
  readonly name: string;
  readonly category: string;
  readonly price: number;
  readonly colors: readonly string[];
  readonly blurb: string;
}

const catalog: readonly Product[] = [
  { id: "enamel-mug", name: "Enamel mug", category: "Mugs", price: 14, colors: ["White", "Blue", "Green"], blurb: "Light, chip-resistant camping mug." },
  { id: "stoneware-mug", name: "Stoneware mug", category: "Mugs", price: 18, colors: ["Sand", "Slate"], blurb: "Hand-glazed, holds 350 ml." },
  { id: "travel-mug", name: "Travel mug", category: "Mugs", price: 22, colors: ["Black", "Red"], blurb: "Keeps coffee hot for four hours." },
  { id: "espresso-cups", name: "Espresso cup set", category: "Cups", price: 24, colors: [], blurb: "Four porcelain cups with saucers." },
  { id: "glass-teapot", name: "Glass teapot", category: "Teapots", price: 32, colors: [], blurb: "Borosilicate glass with a steel infuser." },
  { id: "cast-iron-teapot", name: "Cast iron teapot", category: "Teapots", price: 58, colors: ["Black", "Blue"], blurb: "Tetsubin style, enamelled inside." },
  { id: "ceramic-teapot", name: "Ceramic teapot", category: "Teapots", price: 29, colors: ["White"], blurb: "Serves four, dishwasher safe." },
  { id: "tea-towel", name: "Linen tea towel", category: "Linen", price: 12, colors: ["Natural", "Stripe"], blurb: "Stonewashed European linen." },
  { id: "apron", name: "Canvas apron", category: "Linen", price: 26, colors: ["Olive"], blurb: "Heavy canvas with leather straps." },
  { id: "french-press", name: "French press", category: "Coffee", price: 35, colors: [], blurb: "One litre, double-walled steel." },
  { id: "grinder", name: "Hand coffee grinder", category: "Coffee", price: 45, colors: [], blurb: "Ceramic burrs, 15 settings." },
  { id: "kettle", name: "Gooseneck kettle", category: "Coffee", price: 64, colors: ["Matte black"], blurb: "Precise pour, built-in thermometer." },
];

const coupons: Readonly<Record<string, number>> = { WELCOME10: 0.1 };
const shippingPrices: Readonly<Record<string, number>> = { standard: 0, express: 9 };

/** A line of the cart. */
export interface Line {
  readonly line: string;
  readonly product: string;
  readonly name: string;
  readonly color: string;
  qty: number;
  readonly price: number;
}

interface Order {
  readonly id: string;
  readonly lines: readonly Line[];
  readonly address: Readonly<Record<string, string>>;
  readonly shipping: string;
  readonly total: number;
  readonly paid: boolean;
  readonly card_last4: string;
}

function text(v: unknown, what: string, max = 200): string {
  if (typeof v !== "string" || !v.trim()) throw new HttpError(400, `${what} is required`);
  return v.trim().slice(0, max);
}

/**
 * "Kettle & Crumb", a homeware shop whose cart, payments and orders live on the server (the
 * checks read them at /api/state). Payment cards are tokenised by a widget served from another
 * origin (localhost instead of 127.0.0.1), as card widgets are.
 */
const shop: SiteFactory = ({ dir }) => {
  const cart: { lines: Line[]; coupon: string } = { lines: [], coupon: "" };
  const orders: Order[] = [];
  const tokens = new Map<string, string>();
  let nextLine = 1;
  let nextOrder = 1001;
  const totals = () => {
    const subtotal = cart.lines.reduce((n, l) => n + l.qty * l.price, 0);
    const discount = Math.round(subtotal * (coupons[cart.coupon] ?? 0) * 100) / 100;
    return { subtotal, discount, total: subtotal - discount };
  };
  const cartView = () => ({ lines: cart.lines, coupon: cart.coupon, ...totals() });
  const product = (id: string) => {
    const p = catalog.find((x) => x.id === id);
    if (!p) throw new HttpError(404, `no product ${id}`);
    return p;
  };
  return jsonApi(
    dir,
    {
      "GET /api/products": ({ query }) => {
        const q = (query.get("q") ?? "").toLowerCase();
        const category = query.get("category") ?? "";
        const list = catalog.filter((p) => (!q || p.name.toLowerCase().includes(q)) && (!category || p.category === category));
        const sort = query.get("sort");
        if (sort === "price-asc") list.sort((a, b) => a.price - b.price);
        if (sort === "price-desc") list.sort((a, b) => b.price - a.price);
        return { products: list, categories: [...new Set(catalog.map((p) => p.category))] };
      },
      "GET /api/products/:id": ({ params }) => product(params.id as string),
      "GET /api/cart": () => cartView(),
      "POST /api/cart/lines": ({ body }) => {
        const p = product(text(body.product, "product"));
        const color = typeof body.color === "string" ? body.color : "";
        if (p.colors.length && !p.colors.includes(color)) throw new HttpError(400, `choose a colour: ${p.colors.join(", ")}`);
        const qty = Number(body.qty ?? 1);
        if (!Number.isInteger(qty) || qty < 1 || qty > 20) throw new HttpError(400, "quantity must be 1 to 20");
        const same = cart.lines.find((l) => l.product === p.id && l.color === color);
        if (same) same.qty += qty;
        else cart.lines.push({ line: `l${nextLine++}`, product: p.id, name: p.name, color, qty, price: p.price });
        return cartView();
      },
      "PATCH /api/cart/lines/:line": ({ params, body }) => {
        const l = cart.lines.find((x) => x.line === params.line);
        if (!l) throw new HttpError(404, "no such line");
        const qty = Number(body.qty);
        if (!Number.isInteger(qty) || qty < 1 || qty > 20) throw new HttpError(400, "quantity must be 1 to 20");
        l.qty = qty;
        return cartView();
      },
      "DELETE /api/cart/lines/:line": ({ params }) => {
        cart.lines = cart.lines.filter((x) => x.line !== params.line);
        return cartView();
      },
      "POST /api/cart/coupon": ({ body }) => {
        const code = text(body.code, "code", 40).toUpperCase();
        if (!(code in coupons)) throw new HttpError(400, `the coupon ${code} is not valid`);
        cart.coupon = code;
        return cartView();
      },
      "POST /api/payments/tokens": ({ body }) => {
        const number = text(body.number, "card number", 40).replace(/\s+/g, "");
        if (!/^\d{16}$/.test(number)) throw new HttpError(400, "the card number must have 16 digits");
        if (!/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/.test(text(body.expiry, "expiry", 10))) throw new HttpError(400, "the expiry must be MM/YY");
        if (!/^\d{3}$/.test(text(body.cvc, "CVC", 4))) throw new HttpError(400, "the CVC must have 3 digits");
        const token = `tok_${tokens.size + 1}_${number.slice(-4)}`;
        tokens.set(token, number.slice(-4));
        return { token };
      },
      "POST /api/orders": ({ body }) => {
        if (!cart.lines.length) throw new HttpError(400, "the cart is empty");
        const a = (body.address ?? {}) as Record<string, unknown>;
        const address = { name: text(a.name, "name"), street: text(a.street, "street"), city: text(a.city, "city"), postcode: text(a.postcode, "postcode", 12), country: text(a.country, "country") };
        const shipping = text(body.shipping, "shipping");
        if (!(shipping in shippingPrices)) throw new HttpError(400, "unknown shipping");
        const last4 = tokens.get(text(body.payment, "payment"));
        if (!last4) throw new HttpError(402, "the payment was not authorised");
        const order: Order = { id: String(nextOrder++), lines: cart.lines, address, shipping, total: totals().total + (shippingPrices[shipping] ?? 0), paid: true, card_last4: last4 };
        orders.push(order);
        cart.lines = [];
        cart.coupon = "";
        return order;
      },
      "GET /api/orders/:id": ({ params }) => {
        const o = orders.find((x) => x.id === params.id);
        if (!o) throw new HttpError(404, "no such order");
        return o;
      },
      "GET /api/state": () => ({
        payment_tokens: tokens.size,
        cart: { lines: cart.lines.map(({ product, color, qty }) => ({ product, color, qty })), coupon: cart.coupon, total: totals().total },
        orders: orders.map(({ id, lines, address, shipping, total, paid, card_last4 }) => ({
          id,
          lines: lines.map(({ product, color, qty }) => ({ product, color, qty })),
          address,
          shipping,
          total,
          paid,
          card_last4,
        })),
      }),
    },
    { spa: true },
  );
};

export default shop;
