import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

const stages = ["Lead", "Qualified", "Proposal", "Won", "Lost"];

/** A contact as the server keeps and sends it. */
export interface Contact {
  readonly id: number;
  name: string;
  email: string;
  company: string;
  phone: string;
  stage: string;
  value: number;
}

const people: readonly [string, string, number][] = [
  ["Ada Lovelace", "Analytical Engines", 12_000],
  ["Alan Turing", "Bletchley Systems", 48_500],
  ["Barbara Liskov", "Substitution Labs", 22_000],
  ["Charles Babbage", "Difference Co", 9_500],
  ["Claude Shannon", "Information Theory Inc", 31_000],
  ["Dennis Ritchie", "Bell Works", 27_300],
  ["Donald Knuth", "TeX Press", 15_800],
  ["Dorothy Vaughan", "Langley Compute", 19_900],
  ["Edsger Dijkstra", "Shortest Path BV", 33_100],
  ["Frances Allen", "Optimising Compilers", 41_200],
  ["Grace Hopper", "Cobol Corp", 64_000],
  ["Hedda Gabler", "Ibsen Theatre", 7_200],
  ["John von Neumann", "Architecture Partners", 58_750],
  ["Katherine Johnson", "Orbital Mechanics", 36_400],
  ["Ken Thompson", "Unix Unlimited", 21_600],
  ["Linus Torvalds", "Kernel Ventures", 44_000],
  ["Margaret Hamilton", "Apollo Software", 71_250],
  ["Mary Jackson", "Wind Tunnel Ltd", 18_300],
  ["Niklaus Wirth", "Pascal & Sons", 11_100],
  ["Radia Perlman", "Spanning Trees", 29_800],
  ["Shafi Goldwasser", "Zero Knowledge", 52_900],
  ["Tim Berners-Lee", "Hypertext Co", 39_000],
  ["Tony Hoare", "Quicksort Group", 16_400],
  ["Vint Cerf", "Internetworking", 47_700],
  ["Yukihiro Matsumoto", "Ruby Gems KK", 13_900],
];

/**
 * "Pipeline", a small CRM whose contacts live on the server: a paged, sortable table whose
 * rows open a side panel (each row has its own click listener, as Vue's @click gives it).
 */
const crm: SiteFactory = ({ dir }) => {
  const contacts: Contact[] = people.map(([name, company, value], i) => ({
    id: i + 1,
    name,
    company,
    value,
    email: `${name.split(" ")[0]?.toLowerCase()}@${company.split(" ")[0]?.toLowerCase().replace(/[^a-z]/g, "")}.example`,
    phone: `+1 555 01${String(10 + i).padStart(2, "0")}`,
    stage: stages[i % 4] as string,
  }));
  let next = contacts.length + 1;
  const check = (c: Partial<Contact>) => {
    if (!c.name?.trim()) throw new HttpError(400, "a contact needs a name");
    if (c.email && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(c.email)) throw new HttpError(400, `${c.email} is not an email address`);
    if (c.stage && !stages.includes(c.stage)) throw new HttpError(400, "unknown stage");
  };
  const str = (v: unknown) => (typeof v === "string" ? v.trim() : undefined);
  return jsonApi(
    dir,
    {
      "GET /api/contacts": ({ query }) => {
        const q = (query.get("q") ?? "").toLowerCase();
        const sort = query.get("sort") ?? "name";
        const dirn = query.get("dir") === "desc" ? -1 : 1;
        const page = Math.max(1, Number(query.get("page") ?? 1));
        const list = contacts
          .filter((c) => !q || `${c.name} ${c.company} ${c.email}`.toLowerCase().includes(q))
          .sort((a, b) => dirn * (sort === "value" ? a.value - b.value : String(a[sort as "name"] ?? "").localeCompare(String(b[sort as "name"] ?? ""))));
        const size = 10;
        return { contacts: list.slice((page - 1) * size, page * size), page, pages: Math.max(1, Math.ceil(list.length / size)), total: list.length, stages };
      },
      "POST /api/contacts": ({ body }) => {
        const c: Contact = { id: next++, name: str(body.name) ?? "", email: str(body.email) ?? "", company: str(body.company) ?? "", phone: str(body.phone) ?? "", stage: str(body.stage) ?? "Lead", value: Number(body.value ?? 0) || 0 };
        check(c);
        contacts.push(c);
        return c;
      },
      "PATCH /api/contacts/:id": ({ params, body }) => {
        const c = contacts.find((x) => x.id === Number(params.id));
        if (!c) throw new HttpError(404, "no such contact");
        const patch = { name: str(body.name), email: str(body.email), company: str(body.company), phone: str(body.phone), stage: str(body.stage) };
        check({ ...c, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) });
        Object.assign(c, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
        return c;
      },
      "GET /api/state": () => ({ count: contacts.length, contacts: Object.fromEntries(contacts.map(({ name, id: _id, ...rest }) => [name, rest])) }),
    },
    { spa: true },
  );
};

export default crm;
