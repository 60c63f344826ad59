import type { IncomingMessage, ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SiteFactory } from "../../../site-server.js";

/** How many boards the app has. */
const boards = 11;

/**
 * "Signal" live boards: every board is a page of its own that keeps a Server-Sent Events
 * stream open (`/events`) for updates and saves with `fetch`, as apps that push state do. Its
 * pages are cacheable, so a browser that keeps left pages alive (the back/forward cache) keeps
 * their streams open too, and six of them spend the host's connections.
 */
const live: SiteFactory = ({ dir }) => {
  const visits: number[] = [];
  const saves: number[] = [];
  let streams = 0;
  const page = readFileSync(join(dir, "index.html"), "utf8");
  const json = (res: ServerResponse, body: unknown) => res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
  return async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (path === "/events") {
      streams++;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      let tick = 0;
      res.write(`data: ${tick}\n\n`);
      const timer = setInterval(() => res.write(`data: ${++tick}\n\n`), 1000);
      res.on("close", () => {
        clearInterval(timer);
        streams--;
      });
      return true;
    }
    if (path === "/api/state") {
      json(res, { visits, saves, streams });
      return true;
    }
    const save = /^\/api\/boards\/(\d+)\/save$/.exec(path);
    if (save && req.method === "POST") {
      saves.push(Number(save[1]));
      json(res, { saved: Number(save[1]) });
      return true;
    }
    const board = /^\/(?:boards\/(\d+))?$/.exec(path);
    if (board && req.method === "GET") {
      const n = Number(board[1] ?? 1);
      if (n < 1 || n > boards) return false;
      visits.push(n);
      const links = Array.from({ length: boards }, (_, i) => i + 1)
        .filter((k) => k !== n)
        .map((k) => `<a href="/boards/${k}">Board ${k}</a>`)
        .join(" ");
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" })
        .end(page.replaceAll("{{N}}", String(n)).replace("{{LINKS}}", links));
      return true;
    }
    return false;
  };
};
export default live;
