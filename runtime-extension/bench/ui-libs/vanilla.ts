/** The timeline micro-app with plain DOM calls: the floor the libraries are measured against. */
import { type Entry, entries, report } from "./shared.js";

const root = document.getElementById("app") as HTMLElement;
let list: HTMLOListElement;
let shown = 0;
report(
  () => {
    list = document.createElement("ol");
    list.className = "timeline";
    root.append(list);
  },
  (items: readonly Entry[]) => {
    for (; shown < items.length; shown++) {
      const e = items[shown] as Entry;
      const li = document.createElement("li");
      li.className = `step ${e.state}`;
      const icon = document.createElement("span");
      icon.className = "icon";
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = e.text;
      const ms = document.createElement("span");
      ms.className = "ms";
      ms.textContent = `${e.ms} ms`;
      li.append(icon, text, ms);
      list.append(li);
    }
  },
  entries,
);
