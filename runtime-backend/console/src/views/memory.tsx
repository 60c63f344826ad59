/** Long-term memory: search the user's records, read and delete them. */
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { when } from "../format.js";
import { Empty, ErrorNote, PageHeader } from "../ui.js";

/** The memory page. */
export function MemoryPage() {
  const [query, setQuery] = useState("");
  const [records, setRecords] = useState<MemoryRecord[]>();
  const [error, setError] = useState<string>();
  const load = () =>
    consoleApi.listMemories({ query, limit: 100 }).then(
      (r) => setRecords(r.records),
      (e) => setError(errorText(e)),
    );
  useEffect(() => {
    const t = setTimeout(() => void load(), query ? 200 : 0);
    return () => clearTimeout(t);
  }, [query]);
  return (
    <section>
      <PageHeader title="Memory" sub="What the agent remembers about you across sessions (save_memory), searched as the agent searches it." />
      <div class="toolbar">
        <input type="search" aria-label="Search memory" placeholder="Search memory…" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </div>
      <ErrorNote error={error} />
      {records && records.length === 0 ? (
        <Empty title={query ? "Nothing matches" : "No memories yet"}>The agent saves facts here when you ask it to remember something.</Empty>
      ) : (
        <ul class="cards">
          {(records ?? []).map((m) => (
            <li class="card memory">
              <p>{m.text}</p>
              <div class="memory-foot">
                <span class="muted small">{when(m.createdAt)}</span>
                {m.tags.map((t) => (
                  <span class="tag">{t}</span>
                ))}
                <button
                  type="button"
                  class="ghost danger small"
                  aria-label={`Delete memory “${m.text.slice(0, 40)}”`}
                  onClick={async () => {
                    try {
                      await consoleApi.deleteMemory({ memoryId: m.id });
                      void load();
                    } catch (e) {
                      setError(errorText(e));
                    }
                  }}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
