/**
 * Long-term memory: search the user's records, see where each came from, pin the ones that are
 * the user's own (the agent reads only those as the user's words), write new ones, delete.
 */
import type { MemoryRecord } from "@baton/gen/baton/v1/tools_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { when } from "../format.js";
import { Empty, ErrorNote, InlineCreate, PageHeader } from "../ui.js";

/** Where a record came from, in words: the user, or the agent on a page in a session. */
function Source(p: { m: MemoryRecord }) {
  const { m } = p;
  if (m.byUser) return <p class="memory-source small muted">Written by you</p>;
  return (
    <p class="memory-source small muted">
      Saved by the agent {m.pageUrl ? <>on <code class="memory-url">{m.pageUrl}</code></> : "with no page open"}
      {m.sessionId ? (
        <>
          {" · "}
          <a href={`/sessions/${m.sessionId}`} aria-label={`The session that saved “${m.text.slice(0, 40)}”`}>
            see the session
          </a>
        </>
      ) : null}
    </p>
  );
}

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
  const act = (action: () => Promise<unknown>) => async () => {
    try {
      await action();
      setError(undefined);
      void load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  return (
    <section>
      <PageHeader
        title="Memory"
        sub="What the agent remembers about you across sessions, searched as the agent searches it. It reads what it saved itself as untrusted page data, since a page may have put it there; pin a record to make it yours."
      />
      <div class="toolbar">
        <input type="search" aria-label="Search memory" placeholder="Search memory…" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <InlineCreate
          field="New memory"
          placeholder="Something the agent should know about you…"
          button="Remember"
          maxLength={2000}
          create={async (text) => {
            await consoleApi.createMemory({ text, tags: [] });
            setError(undefined);
            void load();
          }}
          onError={setError}
        />
      </div>
      <ErrorNote error={error} />
      {records && records.length === 0 ? (
        <Empty title={query ? "Nothing matches" : "No memories yet"}>The agent saves facts here when you ask it to remember something; you can write your own above.</Empty>
      ) : (
        <ul class="cards">
          {(records ?? []).map((m) => {
            const short = m.text.slice(0, 40);
            return (
              <li class={`card memory${m.pinned ? " memory-pinned" : ""}`}>
                <p>{m.text}</p>
                <Source m={m} />
                <div class="memory-foot">
                  {m.pinned ? (
                    <span class="pill pill-ok" title="The agent reads it as your own words.">
                      Yours
                    </span>
                  ) : (
                    <span class="pill pill-warn" title="The agent reads it as page data, never as instructions.">
                      Untrusted
                    </span>
                  )}
                  <span class="muted small">{when(m.createdAt)}</span>
                  {m.tags.map((t) => (
                    <span class="tag">{t}</span>
                  ))}
                  <span class="memory-actions">
                    <button
                      type="button"
                      class="ghost small"
                      aria-label={m.pinned ? `Unpin memory “${short}”` : `Pin memory “${short}” as yours`}
                      onClick={act(() => consoleApi.pinMemory({ memoryId: m.id, pinned: !m.pinned }))}
                    >
                      {m.pinned ? "Unpin" : "Pin as mine"}
                    </button>
                    <button type="button" class="ghost danger small" aria-label={`Delete memory “${short}”`} onClick={act(() => consoleApi.deleteMemory({ memoryId: m.id }))}>
                      Delete
                    </button>
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
