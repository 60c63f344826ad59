/** The docs' pages: a slug, a title, and HTML written the way a static-site generator emits it. */
export interface Page {
  readonly slug: string;
  readonly title: string;
  readonly html: string;
}

const filler = (topic: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${topic} ${i + 1}: Nimbus counts requests per API key over a sliding window. Requests that are rejected still count towards the window, so back off before retrying. Batch endpoints count as one request per batch, however many items it holds. Limits apply to each region separately.</p>`,
  ).join("\n");

export const pages: readonly Page[] = [
  {
    slug: "introduction",
    title: "Introduction",
    html: `<p>Nimbus is a storage and search API for small teams. This guide covers authentication, limits, webhooks and the SDKs.</p><p>New here? Start with <a href="/docs/authentication">Authentication</a>.</p>`,
  },
  {
    slug: "authentication",
    title: "Authentication",
    html: `<p>Every request carries an API key in the <code>Authorization</code> header: <code>Authorization: Bearer nb_live_…</code>.</p><h2 id="keys">Keys</h2><p>Create keys in Settings → API keys. Test keys start with <code>nb_test_</code>.</p>`,
  },
  {
    slug: "rate-limits",
    title: "Rate limits",
    html: `<p>Rate limits protect the service for everyone. When you go over a limit, the API answers <code>429 Too Many Requests</code> with a <code>Retry-After</code> header.</p>
<h2 id="how">How limits are counted</h2>${filler("Note", 9)}
<h2 id="headers">Headers</h2><p>Every response carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>.</p>${filler("Detail", 5)}
<h2 id="limits">Limits per plan</h2>
<table><thead><tr><th>Endpoint</th><th>Free</th><th>Pro</th><th>Enterprise</th></tr></thead><tbody>
<tr><td>Objects (read)</td><td>120 / min</td><td>1,200 / min</td><td>12,000 / min</td></tr>
<tr><td>Objects (write)</td><td>60 / min</td><td>600 / min</td><td>6,000 / min</td></tr>
<tr><td>Search</td><td>30 / min</td><td>300 / min</td><td>3,000 / min</td></tr>
<tr><td>Exports</td><td>2 / hour</td><td>20 / hour</td><td>Contact us</td></tr></tbody></table>`,
  },
  {
    slug: "webhooks",
    title: "Webhooks",
    html: `<p>Webhooks tell your server when objects change. Register an HTTPS endpoint in Settings → Webhooks.</p>
<h2 id="signatures">Signatures</h2><p>Each delivery carries a <code>Nimbus-Signature</code> header: an HMAC-SHA256 of the body with your signing secret.</p>
<h2 id="retries">Retries</h2><p>When your endpoint does not answer 2xx within 10 seconds, Nimbus retries the delivery 8 times over 24 hours, with exponential backoff. After the last retry the event is dropped and shown as failed in the dashboard.</p>`,
  },
  {
    slug: "sdks",
    title: "SDKs",
    html: `<p>Official SDKs wrap the API with retries and pagination.</p><code-tabs></code-tabs>`,
  },
  {
    slug: "faq",
    title: "FAQ",
    html: `<details><summary>Is there a free plan?</summary><p>Yes: the Free plan has 1 GB of storage and the limits listed in Rate limits.</p></details>
<details><summary>Can I rotate the webhook signing secret?</summary><p>Yes. In Settings → Webhooks, choose <b>Rotate secret</b>. The old secret keeps working for 24 hours, so you can deploy the new one without dropping deliveries.</p></details>
<details><summary>Where is my data stored?</summary><p>In the region you chose when you created the project: Frankfurt, Virginia or Singapore.</p></details>`,
  },
];

/** What the search box suggests: section titles with the page and anchor they open. */
export const searchIndex: readonly { readonly title: string; readonly href: string }[] = [
  { title: "Authentication", href: "/docs/authentication" },
  { title: "API keys", href: "/docs/authentication#keys" },
  { title: "Rate limits per plan", href: "/docs/rate-limits#limits" },
  { title: "Rate limit headers", href: "/docs/rate-limits#headers" },
  { title: "Webhook signatures", href: "/docs/webhooks#signatures" },
  { title: "Webhook retries", href: "/docs/webhooks#retries" },
  { title: "SDKs", href: "/docs/sdks" },
  { title: "FAQ", href: "/docs/faq" },
];
