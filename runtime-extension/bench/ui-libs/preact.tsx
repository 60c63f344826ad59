/** The timeline micro-app in Preact (what the panel uses). */
import { render } from "preact";
import { type Entry, entries, report } from "./shared.js";

function List({ items }: { items: readonly Entry[] }) {
  return (
    <ol class="timeline">
      {items.map((e) => (
        <li key={e.id} class={`step ${e.state}`}>
          <span class="icon" />
          <span class="text">{e.text}</span>
          <span class="ms">{e.ms} ms</span>
        </li>
      ))}
    </ol>
  );
}

const root = document.getElementById("app") as HTMLElement;
report(
  () => render(<List items={[]} />, root),
  (items) => render(<List items={items} />, root),
  entries,
);
