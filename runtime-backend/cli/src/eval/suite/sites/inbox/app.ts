import { api, html, toast } from "../_shared/kit.js";
import type { Message } from "./server.js";

let messages: Message[] = [];

function render(): void {
  const list = document.getElementById("list") as HTMLElement;
  const shown = messages.filter((m) => !m.archived);
  list.innerHTML = shown
    .map(
      (m) =>
        html`<div class="msg"><span class="star${m.starred ? " starred" : ""}">${m.starred ? "★" : "☆"}</span><span class="from">${m.from}</span><span class="subject">${m.subject}</span><span class="date">${m.date}</span><span class="actions"><button class="icon archive" title="Archive">▤</button></span></div>`.text,
    )
    .join("");
  [...list.children].forEach((row, i) => {
    const m = shown[i]!;
    // Each row listens itself, as a framework's @click on the row compiles to.
    row.addEventListener("click", () => ((document.getElementById("reading") as HTMLElement).textContent = `Reading: ${m.subject}`));
    row.querySelector(".star")?.addEventListener("click", async (e) => {
      e.stopPropagation();
      messages = (await api<{ messages: Message[] }>("PATCH", `/api/messages/${m.id}`, { starred: !m.starred })).messages;
      render();
      toast(m.starred ? "Unstarred" : "Starred");
    });
    row.querySelector(".archive")?.addEventListener("click", async (e) => {
      e.stopPropagation();
      messages = (await api<{ messages: Message[] }>("PATCH", `/api/messages/${m.id}`, { archived: true })).messages;
      render();
      toast("Archived");
    });
  });
}

messages = (await api<{ messages: Message[] }>("GET", "/api/state")).messages;
render();
