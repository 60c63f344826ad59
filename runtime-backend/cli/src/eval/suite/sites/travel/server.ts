import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

const airports = [
  { code: "LIS", city: "Lisbon", name: "Humberto Delgado" },
  { code: "OPO", city: "Porto", name: "Francisco Sá Carneiro" },
  { code: "OSL", city: "Oslo", name: "Gardermoen" },
  { code: "LHR", city: "London", name: "Heathrow" },
  { code: "LGW", city: "London", name: "Gatwick" },
  { code: "FCO", city: "Rome", name: "Fiumicino" },
  { code: "KEF", city: "Reykjavik", name: "Keflavík" },
  { code: "LYS", city: "Lyon", name: "Saint-Exupéry" },
  { code: "LIN", city: "Milan", name: "Linate" },
];

/** A booked trip. */
export interface Trip {
  readonly id: string;
  readonly city: string;
  readonly date: string;
  readonly flight: string;
  status: "booked" | "cancelled";
}

/** The same query always lists the same flights: their numbers and prices derive from it. */
function flights(from: string, to: string, date: string) {
  const seed = [...`${from}${to}${date}`].reduce((n, ch) => (n * 31 + ch.charCodeAt(0)) % 9973, 7);
  return ["07:10", "11:45", "16:20", "20:05"].map((dep, i) => ({
    flight: `SK ${1800 + ((seed + i * 37) % 200)}`,
    departs: dep,
    duration: `${4 + ((seed + i) % 2)}h ${(seed * (i + 3)) % 60}m`,
    stops: i % 2,
    price: 89 + ((seed * (i + 5)) % 180),
  }));
}

/**
 * "Skyway" flights: airport suggestions from the server, a search, a selection that is kept on
 * the server, and the user's trips (one cancelled through a confirmation dialog).
 */
const travel: SiteFactory = ({ dir }) => {
  let selection: Record<string, unknown> = {};
  const trips: Trip[] = [
    { id: "t1", city: "Reykjavik", date: "2026-07-03", flight: "SK 1901", status: "booked" },
    { id: "t2", city: "Rome", date: "2026-08-21", flight: "SK 1844", status: "booked" },
    { id: "t3", city: "Porto", date: "2026-10-09", flight: "SK 1810", status: "booked" },
  ];
  return jsonApi(
    dir,
    {
      "GET /api/airports": ({ query }) => {
        const q = (query.get("q") ?? "").trim().toLowerCase();
        return { airports: q.length < 2 ? [] : airports.filter((a) => a.city.toLowerCase().startsWith(q) || a.code.toLowerCase() === q) };
      },
      "GET /api/flights": ({ query }) => {
        const [from, to, date] = ["from", "to", "date"].map((k) => query.get(k) ?? "");
        if (!airports.some((a) => a.code === from) || !airports.some((a) => a.code === to)) throw new HttpError(400, "choose airports from the list");
        if (!/^\d{4}-\d{2}-\d{2}$/.test(date as string)) throw new HttpError(400, "choose a date");
        return { flights: flights(from as string, to as string, date as string) };
      },
      "POST /api/selection": ({ body }) => {
        const { from, to, date, flight } = body;
        const adults = Number(body.adults);
        const f = flights(String(from), String(to), String(date)).find((x) => x.flight === flight);
        if (!f) throw new HttpError(400, "no such flight");
        selection = { from, to, date, adults, flight, price_each: f.price, total: f.price * adults };
        return selection;
      },
      "GET /api/trips": () => ({ trips }),
      "POST /api/trips/:id/cancel": ({ params }) => {
        const t = trips.find((x) => x.id === params.id);
        if (!t) throw new HttpError(404, "no such trip");
        t.status = "cancelled";
        return { trips };
      },
      "GET /api/state": () => ({ selection, trips: Object.fromEntries(trips.map((t) => [t.city, t.status])) }),
    },
    { spa: true },
  );
};

export default travel;
