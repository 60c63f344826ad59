import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

const columns = ["todo", "doing", "done"] as const;
type Column = (typeof columns)[number];
const people = ["Ada", "Grace", "Linus", "Margaret"];

/** A card as the server keeps and sends it. */
export interface Card {
  readonly id: string;
  title: string;
  column: Column;
  assignee: string;
}

/**
 * "Trellis", a kanban board kept on the server. Cards move by dragging (pointer events, as
 * dnd-kit does it) and open in a dialog to change their assignee.
 */
const board: SiteFactory = ({ dir }) => {
  let next = 7;
  const cards: Card[] = [
    { id: "c1", title: "Write release notes", column: "todo", assignee: "Ada" },
    { id: "c2", title: "Fix login bug", column: "todo", assignee: "" },
    { id: "c3", title: "Update dependencies", column: "todo", assignee: "Grace" },
    { id: "c4", title: "Design the pricing page", column: "doing", assignee: "Margaret" },
    { id: "c5", title: "Migrate the database", column: "doing", assignee: "Linus" },
    { id: "c6", title: "Set up CI", column: "done", assignee: "Grace" },
  ];
  const card = (id: string) => {
    const c = cards.find((x) => x.id === id);
    if (!c) throw new HttpError(404, "no such card");
    return c;
  };
  const view = () => ({ columns, people, cards });
  return jsonApi(dir, {
    "GET /api/board": view,
    "POST /api/cards": ({ body }) => {
      const title = typeof body.title === "string" ? body.title.trim() : "";
      if (!title) throw new HttpError(400, "a card needs a title");
      const column = columns.find((c) => c === body.column);
      if (!column) throw new HttpError(400, "unknown column");
      cards.push({ id: `c${next++}`, title, column, assignee: "" });
      return view();
    },
    "PATCH /api/cards/:id": ({ params, body }) => {
      const c = card(params.id as string);
      if (body.column !== undefined) {
        const column = columns.find((x) => x === body.column);
        if (!column) throw new HttpError(400, "unknown column");
        // Moved to the end of its new column.
        cards.splice(cards.indexOf(c), 1);
        c.column = column;
        cards.push(c);
      }
      if (body.assignee !== undefined) {
        if (body.assignee !== "" && !people.includes(String(body.assignee))) throw new HttpError(400, "unknown person");
        c.assignee = String(body.assignee);
      }
      return view();
    },
    "GET /api/state": () => Object.fromEntries([...columns.map((col) => [col, cards.filter((c) => c.column === col).map((c) => c.title)]), ["assignees", Object.fromEntries(cards.map((c) => [c.title, c.assignee]))]]),
  });
};

export default board;
