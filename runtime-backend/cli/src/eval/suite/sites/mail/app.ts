import { api, ApiError, field, html, mount, navigate, on, startRouter, toast } from "../_shared/kit.js";

interface Summary {
  id: string;
  from: string;
  email: string;
  subject: string;
  snippet: string;
  date: string;
  starred: boolean;
  read: boolean;
}
interface Message extends Summary {
  body: string;
  folder: string;
}
interface Sent {
  to: string;
  subject: string;
  body: string;
}

let folder = "inbox";
let query = "";
let rows: Summary[] = [];
let cursor = -1;

function setFolderLinks(): void {
  for (const a of document.querySelectorAll<HTMLAnchorElement>(".folders a")) a.classList.toggle("now", a.dataset.folder === folder);
}

// The list: each row is a <div> that opens its message on click (through the document's one
// listener), with a checkbox and an icon-only star button inside.
async function list(): Promise<void> {
  setFolderLinks();
  const data = await api<{ messages: Summary[]; sent: Sent[]; unread: number }>("GET", `/api/messages?folder=${folder}&q=${encodeURIComponent(query)}`);
  (document.getElementById("unread") as HTMLElement).textContent = data.unread ? String(data.unread) : "";
  rows = data.messages;
  cursor = -1;
  if (folder === "sent") {
    mount(html`<h2>Sent</h2>${data.sent.length ? data.sent.map((s) => html`<div class="msg"><span></span><span></span><span>To: ${s.to}</span><span>${s.subject} <span class="snippet">— ${s.body}</span></span><span></span></div>`) : html`<p class="muted">Nothing sent yet.</p>`}`);
    return;
  }
  mount(html`<div class="toolbar">
      <input type="checkbox" data-action="select-all" aria-label="Select all">
      <button class="icon" data-action="archive" aria-label="Archive" title="Archive"><i class="i i-archive"></i></button>
      <span class="muted">${query ? `Search results for “${query}”` : folder === "inbox" ? "Inbox" : folder[0]?.toUpperCase() + folder.slice(1)}</span>
    </div>
    <div id="list">${
      rows.length
        ? rows.map(
            (m) => html`<div class="msg ${m.read ? "" : "unread"}" data-action="open" data-id="${m.id}">
              <input type="checkbox" class="pick" value="${m.id}" aria-label="Select message from ${m.from}">
              <button class="icon" data-action="star" data-id="${m.id}" aria-label="${m.starred ? "Unstar" : "Star"}" title="${m.starred ? "Starred" : "Not starred"}"><i class="i i-star ${m.starred ? "on" : ""}"></i></button>
              <span>${m.from}</span><span>${m.subject} <span class="snippet">— ${m.snippet}</span></span><span class="muted">${m.date}</span>
            </div>`,
          )
        : html`<p class="muted">No messages.</p>`
    }</div>`);
}

on("click", "open", (el, e) => {
  if ((e.target as Element).closest("input, button")) return;
  navigate(`/message/${el.dataset.id}`);
});
on("click", "star", async (el) => {
  const m = rows.find((r) => r.id === el.dataset.id);
  if (!m) return;
  await api("POST", `/api/messages/${m.id}/star`, { starred: !m.starred });
  await list();
});
on("change", "select-all", (el) => {
  for (const box of document.querySelectorAll<HTMLInputElement>("input.pick")) box.checked = (el as HTMLInputElement).checked;
});
on("click", "archive", async () => {
  const ids = [...document.querySelectorAll<HTMLInputElement>("input.pick:checked")].map((b) => b.value);
  if (!ids.length) return toast("Select messages to archive first");
  await api("POST", "/api/archive", { ids });
  toast(`${ids.length} conversation(s) archived`);
  if (location.pathname.startsWith("/message/")) navigate("/");
  else await list();
});

// Keyboard shortcuts, as webmail has them: j/k move the cursor, Enter or o opens, Escape leaves
// the search box.
document.addEventListener("keydown", (e) => {
  const inField = (e.target as Element).closest("input, textarea, select, [contenteditable]");
  if (inField) {
    if (e.key === "Escape") (e.target as HTMLElement).blur();
    return;
  }
  const els = [...document.querySelectorAll<HTMLElement>("#list .msg")];
  if (!els.length) return;
  if (e.key === "j" || e.key === "k") {
    cursor = Math.max(0, Math.min(els.length - 1, cursor + (e.key === "j" ? 1 : -1)));
    els.forEach((el, i) => el.classList.toggle("cursor", i === cursor));
  } else if ((e.key === "Enter" || e.key === "o") && cursor >= 0) {
    navigate(`/message/${els[cursor]?.dataset.id}`);
  }
});

document.getElementById("search")?.addEventListener("submit", (e) => {
  e.preventDefault();
  query = field(e.target as HTMLFormElement, "q").trim();
  if (folder !== "inbox" || location.pathname !== "/") navigate("/");
  else void list();
});

let current: Message | undefined;
async function reader(id: string): Promise<void> {
  try {
    current = await api<Message>("GET", `/api/messages/${id}`);
  } catch {
    mount(html`<p>No such message. <a href="/">Back to the inbox</a></p>`);
    return;
  }
  const m = current;
  mount(html`<div class="toolbar"><a href="/">← Inbox</a>
      <button class="icon" data-action="archive-one" aria-label="Archive" title="Archive"><i class="i i-archive"></i></button>
      <button data-action="reply"><i class="i i-reply"></i> Reply</button></div>
    <article class="reader"><h2>${m.subject}</h2>
      <p><b>${m.from}</b> <span class="muted">&lt;${m.email}&gt; · ${m.date}</span></p>
      <pre>${m.body}</pre></article>`);
}
on("click", "archive-one", async () => {
  if (!current) return;
  await api("POST", "/api/archive", { ids: [current.id] });
  toast("Conversation archived");
  navigate("/");
});

// Compose: a modal dialog over the page.
function compose(to = "", subject = "", replyTo = ""): void {
  const root = document.getElementById("compose-root") as HTMLElement;
  root.innerHTML = html`<div class="dialog-backdrop">
    <form class="dialog" role="dialog" aria-modal="true" aria-labelledby="compose-title" id="compose" data-reply-to="${replyTo}">
      <header><span id="compose-title">${replyTo ? "Reply" : "New message"}</span><button type="button" class="icon" data-action="discard" aria-label="Discard draft"><i class="i i-close"></i></button></header>
      <input name="to" aria-label="To" placeholder="To" value="${to}">
      <input name="subject" aria-label="Subject" placeholder="Subject" value="${subject}">
      <textarea name="body" aria-label="Message body"></textarea>
      <p class="error" id="send-error" role="alert"></p>
      <button class="primary">Send</button>
    </form></div>`.text;
  (root.querySelector(to ? "textarea" : "input") as HTMLElement).focus();
}
on("click", "compose", () => compose());
on("click", "reply", () => current && compose(current.email, `Re: ${current.subject}`, current.id));
on("click", "discard", () => {
  (document.getElementById("compose-root") as HTMLElement).innerHTML = "";
});
document.addEventListener("submit", async (e) => {
  const form = e.target as HTMLFormElement;
  if (form.id !== "compose") return;
  e.preventDefault();
  try {
    await api("POST", "/api/send", { to: field(form, "to"), subject: field(form, "subject"), body: field(form, "body"), in_reply_to: form.dataset.replyTo });
    (document.getElementById("compose-root") as HTMLElement).innerHTML = "";
    toast("Message sent");
  } catch (err) {
    (document.getElementById("send-error") as HTMLElement).textContent = err instanceof ApiError ? err.message : "Could not send";
  }
});

startRouter(async (path) => {
  const [, first, id] = path.split("/");
  if (first === "message" && id) return reader(id);
  folder = first === "folder" && id ? id : "inbox";
  if (folder !== "inbox") query = "";
  await list();
});
