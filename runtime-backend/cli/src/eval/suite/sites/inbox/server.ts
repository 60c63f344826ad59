import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

/** One message of the inbox. */
export interface Message {
  id: number;
  from: string;
  subject: string;
  date: string;
  starred: boolean;
  archived: boolean;
}

/**
 * "Quill" webmail, built the way such apps draw their lists: rows are `<div>`s that open the
 * message, each with a star drawn as a glyph (☆ / ★) and row actions shown only on hover.
 */
const inbox: SiteFactory = ({ dir }) => {
  const messages: Message[] = [
    ["Ada Lovelace", "Notes on the engine", "Mar 3", false],
    ["Grace Hopper", "Design review", "Mar 3", true],
    ["Linus Torvalds", "Kernel patch v2", "Mar 2", false],
    ["Linus Torvalds", "Re: scheduler tweaks", "Mar 1", false],
    ["Margaret Hamilton", "Flight software sign-off", "Feb 28", false],
  ].map(([from, subject, date, starred], i) => ({ id: i + 1, from: String(from), subject: String(subject), date: String(date), starred: Boolean(starred), archived: false }));
  const state = () => ({ messages, starred: messages.filter((m) => m.starred).map((m) => m.subject) });
  const find = (id: string): Message => {
    const m = messages.find((x) => String(x.id) === id);
    if (!m) throw new HttpError(404, "no such message");
    return m;
  };
  return jsonApi(
    dir,
    {
      "GET /api/state": state,
      "PATCH /api/messages/:id": ({ params, body }) => {
        const m = find(params.id ?? "");
        if (typeof body.starred === "boolean") m.starred = body.starred;
        if (typeof body.archived === "boolean") m.archived = body.archived;
        return state();
      },
    },
    { spa: true },
  );
};
export default inbox;
