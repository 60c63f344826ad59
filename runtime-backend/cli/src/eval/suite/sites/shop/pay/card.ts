import { api, ApiError, field } from "../../_shared/kit.js";

// The card widget: served from another origin than the shop, it keeps the card number to
// itself and hands the shop only a token (postMessage), as payment widgets do.
const shop = `http://127.0.0.1:${location.port}`;

addEventListener("message", async (e: MessageEvent<{ type?: string }>) => {
  if (e.origin !== shop || e.data.type !== "tokenise") return;
  const form = document.getElementById("card") as HTMLFormElement;
  try {
    const { token } = await api<{ token: string }>("POST", "/api/payments/tokens", { number: field(form, "number"), expiry: field(form, "expiry"), cvc: field(form, "cvc") });
    parent.postMessage({ type: "token", token, last4: field(form, "number").replace(/\s+/g, "").slice(-4) }, shop);
  } catch (err) {
    parent.postMessage({ type: "error", error: err instanceof ApiError ? err.message : "Payment failed" }, shop);
  }
});
