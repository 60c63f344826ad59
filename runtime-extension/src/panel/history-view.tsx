import { useEffect, useState } from "preact/hooks";
import { loadPastSessions, type PastSession } from "../past-sessions.js";

function ago(at: number): string {
  const s = Math.max(0, Math.round((Date.now() - at) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return new Date(at).toLocaleDateString();
}

/** The sessions this browser ran; opening one shows its timeline and lets you follow up. */
export function HistoryView({ onOpen }: { onOpen(s: PastSession): void }) {
  const [list, setList] = useState<PastSession[]>();
  useEffect(() => void loadPastSessions().then(setList), []);
  if (!list) return null;
  if (list.length === 0) return <p class="empty">No sessions yet. Tasks you run show up here.</p>;
  return (
    <ul class="sessions" aria-label="Past sessions">
      {list.map((s) => (
        <li key={s.sessionId}>
          <button type="button" class="session" onClick={() => onOpen(s)}>
            <span class="session-task">{s.task}</span>
            <span class="session-meta">
              <span class={`chip-status ${s.status}`}>{s.status}</span>
              {ago(s.at)}
            </span>
            {s.answer ? <span class="session-answer">{s.answer}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}
