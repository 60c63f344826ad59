import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

/** One invoice. */
export interface Invoice {
  number: string;
  ref: string;
  client: string;
  date: string;
  status: string;
  amount: string;
}

/**
 * "Tally" invoicing, built the way accounting apps draw their lists: table rows with a pointer
 * cursor that select themselves when clicked, the invoice number as a link that opens the
 * invoice, and the client's name as a link in the middle of the row.
 */
const ledger: SiteFactory = ({ dir }) => {
  const invoices: Invoice[] = [
    ["INV-0058", "MRW-WEBSITE", "Murray River Winery", "1 Mar 2024", "Awaiting approval", "1,250.00"],
    ["INV-0057", "BAY-HOSTING", "Bayside Club", "27 Feb 2024", "Awaiting approval", "540.00"],
    ["INV-0056", "CITY-AUDIT", "City Limousines", "20 Feb 2024", "Draft", "2,100.00"],
    ["INV-0055", "RID-SUPPORT", "Ridgeway University", "14 Feb 2024", "Paid", "880.50"],
  ].map(([number, ref, client, date, status, amount]) => ({ number: number!, ref: ref!, client: client!, date: date!, status: status!, amount: amount! }));
  return jsonApi(
    dir,
    {
      "GET /api/state": () => ({ invoices }),
      "POST /api/invoices/:number/approve": ({ params }) => {
        const inv = invoices.find((i) => i.number === params.number);
        if (!inv) throw new HttpError(404, "no such invoice");
        if (inv.status !== "Awaiting approval") throw new HttpError(409, `${inv.number} is ${inv.status.toLowerCase()}, not awaiting approval`);
        inv.status = "Awaiting payment";
        return { invoices };
      },
    },
    { spa: true },
  );
};
export default ledger;
