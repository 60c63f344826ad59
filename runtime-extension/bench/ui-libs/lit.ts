/** The timeline micro-app in lit-html (lit's renderer, without custom elements). */
import { html, render } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { type Entry, entries, report } from "./shared.js";

const list = (items: readonly Entry[]) =>
  html`<ol class="timeline">${repeat(
    items,
    (e) => e.id,
    (e) => html`<li class="step ${e.state}"><span class="icon"></span><span class="text">${e.text}</span><span class="ms">${e.ms} ms</span></li>`,
  )}</ol>`;

const root = document.getElementById("app") as HTMLElement;
report(
  () => render(list([]), root),
  (items) => render(list(items), root),
  entries,
);
