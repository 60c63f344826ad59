import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

interface Message {
  readonly id: string;
  readonly from: string;
  readonly email: string;
  readonly subject: string;
  readonly body: string;
  readonly date: string;
  readonly newsletter: boolean;
  folder: "inbox" | "archive";
  starred: boolean;
  read: boolean;
}

interface Sent {
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly in_reply_to: string;
}

const seed: readonly Omit<Message, "folder" | "starred" | "read">[] = [
  { id: "m1", from: "Weekly Digest", email: "digest@news.example", subject: "Your week in review", body: "Top stories this week: …", date: "May 14", newsletter: true },
  { id: "m2", from: "Grace Hopper", email: "grace@navy.example", subject: "Design review", body: "Hi! Could we hold the design review on Thursday at 3 pm in room 4? The compiler notes are attached.\n\nGrace", date: "May 13", newsletter: false },
  { id: "m3", from: "Linus Torvalds", email: "linus@kernel.example", subject: "Kernel patch v2", body: "Applied the scheduler patch. Please test on arm64 before Friday.", date: "May 13", newsletter: false },
  { id: "m4", from: "Acme Deals", email: "deals@acme.example", subject: "48 hours only: 30% off", body: "Our biggest sale of the season …", date: "May 12", newsletter: true },
  { id: "m5", from: "Margaret Hamilton", email: "margaret@apollo.example", subject: "Flight software sign-off", body: "The sign-off meeting moved to Monday 10 am.", date: "May 12", newsletter: false },
  { id: "m6", from: "Grace Hopper", email: "grace@navy.example", subject: "Nanoseconds", body: "I brought the wire lengths for the talk.", date: "May 11", newsletter: false },
  { id: "m7", from: "Dev Weekly", email: "hello@devweekly.example", subject: "Issue #212: build tools", body: "This week: bundlers, linters and more.", date: "May 10", newsletter: true },
  { id: "m8", from: "Alan Turing", email: "alan@bletchley.example", subject: "Chess by post", body: "My move: knight to f3.", date: "May 9", newsletter: false },
];

/**
 * "Postbox", a webmail whose folders, stars and sent mail live on the server. Its message list
 * rows are plain <div>s opened by a click (one listener on the document) or by keyboard
 * shortcuts (j/k to move, Enter or o to open), as in Gmail.
 */
const mail: SiteFactory = ({ dir }) => {
  const messages: Message[] = seed.map((m) => ({ ...m, folder: "inbox", starred: false, read: m.newsletter }));
  const sent: Sent[] = [];
  const find = (id: string) => {
    const m = messages.find((x) => x.id === id);
    if (!m) throw new HttpError(404, `no message ${id}`);
    return m;
  };
  const text = (v: unknown, what: string) => {
    if (typeof v !== "string" || !v.trim()) throw new HttpError(400, `${what} is required`);
    return v.trim();
  };
  const subjects = (f: (m: Message) => boolean) => messages.filter(f).map((m) => m.subject).sort();
  return jsonApi(
    dir,
    {
      "GET /api/messages": ({ query }) => {
        const folder = query.get("folder") ?? "inbox";
        const q = (query.get("q") ?? "").toLowerCase();
        const list = folder === "starred" ? messages.filter((m) => m.starred) : folder === "sent" ? [] : messages.filter((m) => m.folder === folder);
        return {
          messages: list.filter((m) => !q || `${m.from} ${m.subject} ${m.body}`.toLowerCase().includes(q)).map(({ body, ...m }) => ({ ...m, snippet: body.slice(0, 60) })),
          sent: folder === "sent" ? sent : [],
          unread: messages.filter((m) => m.folder === "inbox" && !m.read).length,
        };
      },
      "GET /api/messages/:id": ({ params }) => {
        const m = find(params.id as string);
        m.read = true;
        return m;
      },
      "POST /api/messages/:id/star": ({ params, body }) => {
        const m = find(params.id as string);
        m.starred = body.starred !== false;
        return m;
      },
      "POST /api/archive": ({ body }) => {
        const ids = Array.isArray(body.ids) ? body.ids.filter((x): x is string => typeof x === "string") : [];
        if (!ids.length) throw new HttpError(400, "select messages to archive");
        for (const id of ids) find(id).folder = "archive";
        return { archived: ids.length };
      },
      "POST /api/send": ({ body }) => {
        const to = text(body.to, "a recipient");
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(to)) throw new HttpError(400, `${to} is not an email address`);
        const m: Sent = { to, subject: text(body.subject, "a subject"), body: text(body.body, "a message"), in_reply_to: typeof body.in_reply_to === "string" ? body.in_reply_to : "" };
        sent.push(m);
        return m;
      },
      "GET /api/state": () => ({
        inbox: subjects((m) => m.folder === "inbox"),
        archived: subjects((m) => m.folder === "archive"),
        starred: subjects((m) => m.starred),
        sent,
      }),
    },
    { spa: true },
  );
};

export default mail;
