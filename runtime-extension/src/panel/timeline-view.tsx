import { useEffect, useRef, useState } from "preact/hooks";
import type { TimelineItem } from "../run/timeline.js";
import { defaultRememberMs, rememberDurations } from "@baton/sdk/policy";
import { Icon, toolIcon } from "./icons.js";
import { actionClassLabel } from "./trust-view.js";

/** What the timeline's cards can ask the panel to do. */
export interface TimelineActions {
  /** Answers an approval card; with `keepMs`, for every call of its class on its site (0: until revoked). */
  decide(id: string, approved: boolean, keepMs?: number): void;
  /** Approves an upload card and adds the folders it offers to the upload folders. */
  allowFolders(id: string, folders: readonly string[]): void;
  answer(id: string, answer: string): void;
  resumeDebugger(): void;
  continueWithoutDebugger(): void;
  stop(): void;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function Step({ item }: { item: Extract<TimelineItem, { kind: "step" }> }) {
  const [zoom, setZoom] = useState<string | undefined>();
  return (
    <li class={`step step-${item.state}`} data-kind="step" data-tool={item.tool} data-state={item.state} data-ms={item.ms ?? ""}>
      <span class="step-icon">
        <Icon name={toolIcon(item.tool)} size={14} />
      </span>
      <div class="step-body">
        <div class="step-line">
          <span class="step-text">{item.description}</span>
          {item.state === "running" ? <span class="spinner" aria-label="running" /> : null}
          {item.state === "done" && item.ms !== undefined ? <span class="step-ms">{item.ms < 1000 ? `${item.ms} ms` : `${(item.ms / 1000).toFixed(1)} s`}</span> : null}
          {item.state === "failed" ? (
            <span class="step-flag err">
              <Icon name="x" size={12} />
            </span>
          ) : null}
        </div>
        {item.note ? <div class="step-note">{item.note}</div> : null}
        {item.error ? (
          <div class="step-error" title={item.error}>
            {item.error}
          </div>
        ) : null}
        {item.images.length > 0 ? (
          <div class="shots">
            {item.images.map((src, n) => (
              <button type="button" class="shot" key={src} onClick={() => setZoom(zoom === src ? undefined : src)} aria-label={`Screenshot ${n + 1}, ${zoom === src ? "shrink" : "enlarge"}`}>
                <img src={src} alt="" class={zoom === src ? "big" : ""} />
              </button>
            ))}
          </div>
        ) : null}
      </div>
    </li>
  );
}

function Approval({ item, actions }: { item: Extract<TimelineItem, { kind: "approval" }>; actions: TimelineActions }) {
  const approve = useRef<HTMLButtonElement>(null);
  const [keep, setKeep] = useState(defaultRememberMs);
  useEffect(() => {
    if (item.state === "pending") approve.current?.closest(".card")?.querySelector<HTMLElement>("h3")?.focus();
  }, [item.state]);
  const pending = item.state === "pending";
  return (
    <li class={`card approval ${pending ? "pending" : item.state}`} data-kind="approval" data-state={item.state}>
      <div class="card-head">
        <Icon name="shield" size={15} />
        <h3 tabIndex={-1}>
          {pending
            ? item.upload
              ? "Allow this upload? The file is outside your upload folder"
              : item.source === "backend"
                ? "Allow this action? It can't be undone"
                : "Allow this action?"
            : item.state === "approved"
              ? item.onSite && item.remember
                ? `Allowed, and always on ${hostOf(item.remember.site)}`
                : item.addedFolders?.length
                  ? `Allowed, and always from ${item.addedFolders.join(", ")}`
                  : "Allowed"
              : item.onSite && item.remember
                ? `Not allowed, and never on ${hostOf(item.remember.site)}`
                : "Not allowed"}
        </h3>
      </div>
      <p class="card-main">{item.description}</p>
      {item.upload ? (
        <>
          <ul class="paths" aria-label="Files to upload">
            {item.upload.files.map((f) => (
              <li key={f}>
                <code>{f}</code>
              </li>
            ))}
          </ul>
          <p class="card-sub">
            {item.upload.folders.length === 0 ? "No upload folder is set: every upload is asked about." : `Upload folder${item.upload.folders.length > 1 ? "s" : ""}: ${item.upload.folders.join(", ")}`}
          </p>
        </>
      ) : null}
      {item.page.url || item.page.title ? (
        <p class="card-sub">
          on <strong>{item.page.title || hostOf(item.page.url)}</strong>
          {item.page.url ? <span class="url"> · {hostOf(item.page.url)}</span> : null}
        </p>
      ) : null}
      {pending ? (
        <div class="card-actions">
          <button type="button" class="btn ghost" onClick={() => actions.decide(item.id, false)}>
            Deny
          </button>
          <button type="button" class="btn primary" ref={approve} onClick={() => actions.decide(item.id, true)}>
            Approve
          </button>
        </div>
      ) : null}
      {pending && item.upload?.offer?.length ? (
        <div class="card-remember" role="group" aria-label="Remember this answer">
          <p class="card-sub">Or let every file from there go up without asking (Settings lists your upload folders):</p>
          <div class="card-actions">
            <button type="button" class="btn ghost" onClick={() => actions.allowFolders(item.id, item.upload?.offer ?? [])}>
              Always allow files from {item.upload.offer.join(", ")}
            </button>
          </div>
        </div>
      ) : null}
      {pending && item.remember ? (
        <div class="card-remember" role="group" aria-label="Remember this answer">
          <p class="card-sub">
            Or answer for every {actionClassLabel[item.remember.risk].toLowerCase()} on <strong>{hostOf(item.remember.site)}</strong>:
          </p>
          <div class="card-actions">
            <button type="button" class="btn ghost" onClick={() => actions.decide(item.id, false, keep)}>
              Never on this site
            </button>
            <button type="button" class="btn ghost" onClick={() => actions.decide(item.id, true, keep)}>
              Always on this site
            </button>
          </div>
          <select aria-label="Remember the answer" value={String(keep)} onChange={(e) => setKeep(Number(e.currentTarget.value))}>
            {rememberDurations.map(([label, ms]) => (
              <option key={ms} value={String(ms)}>
                {label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </li>
  );
}

function Question({ item, actions }: { item: Extract<TimelineItem, { kind: "question" }>; actions: TimelineActions }) {
  const [text, setText] = useState("");
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (item.state === "pending") input.current?.focus();
  }, [item.state]);
  return (
    <li class={`card question ${item.state}`} data-kind="question" data-state={item.state}>
      <div class="card-head">
        <Icon name="question" size={15} />
        <h3>Baton asks</h3>
      </div>
      <p class="card-main">{item.question}</p>
      {item.state === "answered" ? (
        <p class="card-sub">
          You answered: <strong>{item.answer}</strong>
        </p>
      ) : (
        <form
          class="answer"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) actions.answer(item.id, text.trim());
          }}
        >
          {item.choices.length > 0 ? (
            <div class="choices">
              {item.choices.map((c) => (
                <button type="button" class="chip" key={c} onClick={() => actions.answer(item.id, c)}>
                  {c}
                </button>
              ))}
            </div>
          ) : null}
          <div class="answer-row">
            <input ref={input} value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder="Your answer" aria-label="Your answer" />
            <button type="submit" class="btn primary" disabled={!text.trim()}>
              Send
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

function Item({ item, actions }: { item: TimelineItem; actions: TimelineActions }) {
  switch (item.kind) {
    case "task":
      return (
        <li class="task" data-kind="task">
          <div class="bubble">{item.text}</div>
        </li>
      );
    case "thinking":
      return (
        <li class="thinking" data-kind="thinking" aria-live="polite">
          <span class="dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
          Thinking…
        </li>
      );
    case "text":
      return (
        <li class="say" data-kind="text">
          <span class="avatar">
            <Icon name="logo" size={13} />
          </span>
          <p>{item.text}</p>
        </li>
      );
    case "step":
      return <Step item={item} />;
    case "approval":
      return <Approval item={item} actions={actions} />;
    case "question":
      return <Question item={item} actions={actions} />;
    case "notice":
      return (
        <li class={`notice ${item.tone}`} data-kind="notice" role={item.tone === "error" ? "alert" : undefined}>
          <Icon name={item.tone === "info" ? "info" : "alert"} size={15} />
          <div>
            <strong>{item.title}</strong>
            <p>{item.text}</p>
          </div>
        </li>
      );
    case "paused":
      return (
        <li class={`card paused ${item.state}`} data-kind="paused" data-state={item.state}>
          <div class="card-head">
            <Icon name="pause" size={15} />
            <h3>{item.state === "active" ? "Paused: Chrome's debugging bar was cancelled" : "Resumed"}</h3>
          </div>
          {item.state === "active" ? (
            <>
              <p class="card-text">Baton acts in your tab through Chrome's debugger. You cancelled the "started debugging this browser" bar, so nothing happens until you choose.</p>
              <p class="card-sub">Resume shows Chrome's bar again. Without the debugger, Baton acts through the page itself: no screenshots or uploads, and some sites may not react to it.</p>
              <div class="card-actions stack">
                <button type="button" class="btn primary" onClick={() => actions.resumeDebugger()}>
                  Resume
                </button>
                <button type="button" class="btn ghost" onClick={() => actions.continueWithoutDebugger()}>
                  Continue without it
                </button>
                <button type="button" class="btn ghost" onClick={() => actions.stop()}>
                  Stop task
                </button>
              </div>
            </>
          ) : null}
        </li>
      );
    case "outcome":
      return (
        <li class={`outcome ${item.status}`} data-kind="outcome" data-status={item.status}>
          <div class="outcome-head">
            <Icon name={item.status === "completed" ? "check" : item.status === "failed" ? "alert" : "stop"} size={14} />
            {item.status === "completed" ? "Done" : item.status === "stopped" ? "Stopped" : item.status === "budget_exhausted" ? "Budget reached" : "Failed"}
          </div>
          <p>{item.text}</p>
        </li>
      );
  }
}

/** The run's timeline, newest at the bottom; follows new entries unless the user scrolled up. */
export function TimelineView({ items, actions }: { items: readonly TimelineItem[]; actions: TimelineActions }) {
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = end.current?.closest(".scroll");
    if (!scroller) return;
    const nearEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 160;
    if (nearEnd || items.length < 3) end.current?.scrollIntoView({ block: "end" });
  }, [items]);
  return (
    <>
      <ol class="timeline" aria-label="What Baton is doing" aria-live="polite">
        {items.map((item) => (
          <Item key={item.id} item={item} actions={actions} />
        ))}
      </ol>
      <div ref={end} />
    </>
  );
}
