import { useEffect, useRef, useState } from "preact/hooks";
import { Icon } from "./icons.js";

/** The tab a task will act in. */
export interface TargetTab {
  readonly id: number;
  readonly title: string;
  readonly url: string;
  readonly favicon: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** The task box: Enter runs (Shift+Enter for a new line); Stop while a task runs. */
export function Composer(p: {
  running: boolean;
  target: TargetTab | undefined;
  followUp: boolean;
  onRun(task: string): void;
  onStop(): void;
  onNew(): void;
  /** Opens Ask about this page (Chrome's built-in model). */
  onAsk(): void;
}) {
  const [text, setText] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!p.running) box.current?.focus();
  }, [p.running]);
  const submit = () => {
    const task = text.trim();
    if (!task || p.running || !p.target) return;
    setText("");
    p.onRun(task);
  };
  return (
    <footer class="composer">
      <div class="where">
        {p.target?.favicon ? <img src={p.target.favicon} alt="" width={14} height={14} /> : <Icon name="globe" size={14} />}
        <span class="where-text">
          {p.running ? "Working in " : "In "}
          <strong>{p.target?.title || hostOf(p.target?.url ?? "") || "this tab"}</strong>
        </span>
        {p.running ? null : (
          <button type="button" class="link" onClick={() => p.onAsk()} title="Chrome’s built-in model answers questions about this page">
            Ask about it
          </button>
        )}
        {p.followUp ? (
          <button type="button" class="link" onClick={() => p.onNew()}>
            New task
          </button>
        ) : null}
      </div>
      <form
        class="ask"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <textarea
          ref={box}
          rows={2}
          value={text}
          disabled={p.running}
          aria-label="Task"
          placeholder={p.running ? "Baton is working…" : p.followUp ? "Ask a follow-up…" : "Tell Baton what to do in this tab…"}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {p.running ? (
          <button type="button" class="btn danger run" onClick={() => p.onStop()} aria-keyshortcuts="Escape">
            <Icon name="stop" size={12} /> Stop
          </button>
        ) : (
          <button type="submit" class="btn primary run" disabled={!text.trim() || !p.target}>
            Run <Icon name="send" size={14} />
          </button>
        )}
      </form>
    </footer>
  );
}
