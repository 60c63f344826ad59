import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";
import { pages, searchIndex } from "./pages.js";

/** "Nimbus docs": a single-page docs site; its search and page feedback go through the server. */
const docs: SiteFactory = ({ dir }) => {
  const feedback: { page: string; helpful: boolean; comment: string }[] = [];
  return jsonApi(
    dir,
    {
      "GET /api/nav": () => pages.map(({ slug, title }) => ({ slug, title })),
      "GET /api/pages/:slug": ({ params }) => {
        const p = pages.find((x) => x.slug === params.slug);
        if (!p) throw new HttpError(404, "no such page");
        return p;
      },
      "GET /api/search": ({ query }) => {
        const q = (query.get("q") ?? "").trim().toLowerCase();
        return { results: q.length < 2 ? [] : searchIndex.filter((r) => r.title.toLowerCase().split(/\s+/).some((w) => w.startsWith(q)) || r.title.toLowerCase().includes(q)) };
      },
      "POST /api/feedback": ({ body }) => {
        if (typeof body.page !== "string" || !pages.some((p) => p.slug === body.page)) throw new HttpError(400, "unknown page");
        feedback.push({ page: body.page, helpful: body.helpful === true, comment: typeof body.comment === "string" ? body.comment.trim() : "" });
        return { ok: true };
      },
      "GET /api/state": () => ({ feedback }),
    },
    { spa: true },
  );
};

export default docs;
