import { api, html, toast } from "../_shared/kit.js";
import type { Card } from "./server.js";

interface Board {
  columns: string[];
  people: string[];
  cards: Card[];
}

const titles: Record<string, string> = { todo: "To do", doing: "In progress", done: "Done" };
let board: Board;
let adding = "";

// Cards carry what a drag-and-drop library puts on its draggables (role=button, tabindex,
// a role description), and are moved with pointer events: no HTML5 drag and drop.
function render(): void {
  (document.getElementById("app") as HTMLElement).innerHTML = html`<div class="columns">${board.columns.map(
    (col) => html`<section class="column" data-column="${col}" aria-labelledby="col-${col}">
      <h2 id="col-${col}">${titles[col]} <span class="muted">${board.cards.filter((c) => c.column === col).length}</span></h2>
      ${board.cards
        .filter((c) => c.column === col)
        .map(
          (c) => html`<div class="card" role="button" tabindex="0" aria-roledescription="draggable card" data-id="${c.id}">
            <div>${c.title}</div>${c.assignee ? html`<div class="who">${c.assignee}</div>` : ""}</div>`,
        )}
      ${
        adding === col
          ? html`<form class="new-card" data-column="${col}"><textarea name="title" aria-label="Card title" placeholder="Enter a title for this card"></textarea>
              <div class="row"><button class="primary">Add card</button><button type="button" data-cancel>Cancel</button></div></form>`
          : html`<button class="add" data-add="${col}" aria-label="Add a card to ${titles[col]}">+ Add a card</button>`
      }
    </section>`,
  )}</div>`.text;
  const form = document.querySelector<HTMLFormElement>("form.new-card");
  form?.querySelector("textarea")?.focus();
}

async function load(): Promise<void> {
  board = await api<Board>("GET", "/api/board");
  render();
}

let drag: { card: HTMLElement; id: string; x: number; y: number; moved: boolean } | undefined;

document.addEventListener("pointerdown", (e) => {
  const card = (e.target as Element).closest<HTMLElement>(".card");
  if (!card || e.button !== 0) return;
  drag = { card, id: card.dataset.id ?? "", x: e.clientX, y: e.clientY, moved: false };
});

const columnAt = (x: number, y: number) => document.elementsFromPoint(x, y).find((el) => el.classList.contains("column")) as HTMLElement | undefined;

document.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const dx = e.clientX - drag.x;
  const dy = e.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 5) return;
  drag.moved = true;
  drag.card.classList.add("dragging");
  drag.card.style.transform = `translate(${dx}px, ${dy}px)`;
  for (const col of document.querySelectorAll(".column")) col.classList.toggle("over", col === columnAt(e.clientX, e.clientY));
});

document.addEventListener("pointerup", async (e) => {
  const d = drag;
  drag = undefined;
  if (!d) return;
  if (!d.moved) {
    openCard(d.id);
    return;
  }
  const col = columnAt(e.clientX, e.clientY);
  if (col?.dataset.column && col.dataset.column !== board.cards.find((c) => c.id === d.id)?.column) {
    board = await api<Board>("PATCH", `/api/cards/${d.id}`, { column: col.dataset.column });
    toast(`Moved to ${titles[col.dataset.column]}`);
  }
  render();
});

// Keyboard: Enter on a focused card opens it, as with a click.
document.addEventListener("keydown", (e) => {
  const card = (e.target as Element).closest<HTMLElement>(".card");
  if (card && e.key === "Enter") openCard(card.dataset.id ?? "");
});

document.addEventListener("click", (e) => {
  const t = e.target as Element;
  const add = t.closest<HTMLElement>("[data-add]");
  if (add) {
    adding = add.dataset.add ?? "";
    render();
  }
  if (t.closest("[data-cancel]")) {
    adding = "";
    render();
  }
});

document.addEventListener("submit", async (e) => {
  const form = e.target as HTMLFormElement;
  if (!form.classList.contains("new-card")) return;
  e.preventDefault();
  const title = (form.elements.namedItem("title") as HTMLTextAreaElement).value.trim();
  if (!title) return;
  board = await api<Board>("POST", "/api/cards", { title, column: form.dataset.column });
  adding = "";
  render();
  toast("Card added");
});

const dialog = document.getElementById("card-dialog") as HTMLDialogElement;
let editing = "";
function openCard(id: string): void {
  const c = board.cards.find((x) => x.id === id);
  if (!c) return;
  editing = id;
  (document.getElementById("card-title") as HTMLElement).textContent = c.title;
  (document.getElementById("assignee") as HTMLSelectElement).innerHTML = html`<option value="">Nobody</option>${board.people.map((p) => html`<option ${p === c.assignee ? html`selected` : ""}>${p}</option>`)}`.text;
  dialog.showModal();
}
document.getElementById("card-form")?.addEventListener("submit", async (e) => {
  if ((e as SubmitEvent).submitter?.getAttribute("value") !== "save") return;
  board = await api<Board>("PATCH", `/api/cards/${editing}`, { assignee: (document.getElementById("assignee") as HTMLSelectElement).value });
  render();
  toast("Card saved");
});

void load();
