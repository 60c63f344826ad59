import { useRef, useState } from "preact/hooks";
import type { TargetTab } from "./composer.js";
import { type BuiltInStatus, useBuiltInModel } from "./built-in-model.js";
import { Icon } from "./icons.js";

/** One question about the page and its answer, as it streams in. */
interface Exchange {
  readonly question: string;
  readonly answer: string;
  readonly state: "asking" | "done" | "failed";
  readonly error?: string;
}

/** Questions offered before the first one. */
const suggestions = ["Summarise this page", "What can I do on this page?", "Explain the main point simply"];

/** What a device needs for the model, as Chrome documents it. */
function Requirements() {
  return (
    <ul class="needs">
      <li>Chrome 138 or later on Windows 10 or 11, macOS 13 or later, Linux, or a Chromebook Plus</li>
      <li>22 GB free on the disk that holds your Chrome profile</li>
      <li>A GPU with more than 4 GB of memory, or 16 GB of RAM and 4 CPU cores</li>
      <li>An unmetered network connection for the one-time download</li>
    </ul>
  );
}

/** The model's state in words, and what the user can do about it. */
function StatusCard({ status, onDownload }: { status: BuiltInStatus; onDownload: () => void }) {
  const s = status.state;
  const tone = s === "available" ? "ready" : s === "downloading" || s === "downloadable" ? "pending" : s === "checking" ? "" : "off";
  const title = {
    checking: "Checking Chrome’s built-in model…",
    missing: "This browser has no built-in model",
    unavailable: "Chrome’s built-in model is not available here",
    downloadable: "Chrome’s built-in model is ready to download",
    downloading: "Downloading Chrome’s built-in model",
    available: "Chrome’s built-in model is ready",
  }[s];
  const progress = "progress" in status && status.progress !== undefined ? Math.round(status.progress * 100) : undefined;
  return (
    <section class={`card built-in ${tone}`} aria-labelledby="built-in-title" data-state={s}>
      <div class="card-head">
        <Icon name={s === "available" ? "check" : s === "downloading" || s === "downloadable" ? "download" : s === "checking" ? "clock" : "info"} size={15} />
        <h3 id="built-in-title">{title}</h3>
      </div>
      {s === "missing" ? (
        <p class="card-sub">Asking about a page without a key uses the Prompt API of Chrome 138 or later. Update Chrome, or add a model and your API key in Settings.</p>
      ) : s === "unavailable" ? (
        <>
          <p class="card-sub">Gemini Nano runs on your device, and this one does not meet what it needs:</p>
          <Requirements />
          <p class="card-sub">
            <code>chrome://on-device-internals</code> says why. On a device below the bar, <code>chrome://flags/#optimization-guide-on-device-model</code> set to “Enabled BypassPerfRequirement” lets you try. Or add a model and your API key in Settings.
          </p>
        </>
      ) : s === "downloadable" ? (
        <>
          <p class="card-sub">Chrome downloads Gemini Nano once (a few GB; 22 GB must be free). Then it answers here, on this device: the page never leaves your computer.</p>
          <div class="card-actions">
            <button type="button" class="btn primary" onClick={onDownload}>
              <Icon name="download" size={14} /> Download the model
            </button>
          </div>
        </>
      ) : s === "downloading" ? (
        <>
          <p class="card-sub">Chrome keeps downloading in the background; you can close the panel and come back.</p>
          <div class="meter" role="progressbar" aria-label="Download" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
            <i style={progress === undefined ? undefined : { width: `${progress}%` }} class={progress === undefined ? "indeterminate" : ""} />
          </div>
          <p class="card-sub meter-text">{progress === undefined ? "Downloading…" : `${progress}% downloaded`}</p>
        </>
      ) : s === "available" ? (
        <p class="card-sub">Gemini Nano answers questions about the page you have open, on this device, with no key. It reads the page; it does not click or type — tasks need a model in Settings.</p>
      ) : null}
      {"error" in status && status.error ? (
        <p class="form-error" role="alert">
          The download failed: {status.error}
        </p>
      ) : null}
    </section>
  );
}

/**
 * Ask about this page: Chrome's built-in model (the Prompt API) answers questions about the tab the
 * user has open — summarise, find, explain — with no key and nothing sent anywhere. Shows the
 * model's availability and what to do about it (the requirements; a download button, since only a
 * user gesture may start the download; its progress), then the questions and their answers.
 */
export function PageChatView({ target }: { target: TargetTab | undefined }) {
  const { status, download } = useBuiltInModel();
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [text, setText] = useState("");
  const asking = useRef<AbortController | undefined>(undefined);
  const busy = exchanges.at(-1)?.state === "asking";
  const ready = status.state === "available";

  const update = (i: number, change: (e: Exchange) => Exchange) => setExchanges((all) => all.map((e, j) => (j === i ? change(e) : e)));
  const ask = async (question: string) => {
    const q = question.trim();
    if (!q || busy || !target) return;
    setText("");
    const i = exchanges.length;
    const earlier = exchanges.filter((e) => e.state === "done").slice(-3).map(({ question, answer }) => ({ question, answer }));
    setExchanges((all) => [...all, { question: q, answer: "", state: "asking" }]);
    const ctl = new AbortController();
    asking.current = ctl;
    try {
      const { askAboutPage } = await import("../standalone/page-chat.js");
      const answer = await askAboutPage({ tabId: target.id, question: q, earlier, signal: ctl.signal, onText: (d) => update(i, (e) => ({ ...e, answer: e.answer + d })) });
      update(i, (e) => ({ ...e, answer, state: "done" }));
    } catch (e) {
      update(i, (x) => ({ ...x, state: "failed", error: ctl.signal.aborted ? "Stopped." : e instanceof Error ? e.message : String(e) }));
    }
  };

  return (
    <div class="page-chat">
      <StatusCard status={status} onDownload={download} />
      {ready ? (
        <>
          <ol class="chat" aria-label="Questions about this page">
            {exchanges.map((e, i) => (
              <li key={i} data-state={e.state}>
                <div class="task">
                  <div class="bubble">{e.question}</div>
                </div>
                <div class="say">
                  <span class="avatar" aria-hidden="true">
                    <Icon name="chat" size={13} />
                  </span>
                  {e.state === "failed" ? (
                    <p class="answer-error" role="alert">
                      {e.error}
                    </p>
                  ) : e.answer ? (
                    <p class="answer-text">{e.answer}</p>
                  ) : (
                    <span class="dots" aria-label="Reading the page">
                      <i />
                      <i />
                      <i />
                    </span>
                  )}
                </div>
              </li>
            ))}
          </ol>
          {exchanges.length === 0 ? (
            <div class="choices" aria-label="Suggestions">
              {suggestions.map((s) => (
                <button key={s} type="button" class="chip" onClick={() => void ask(s)} disabled={!target}>
                  {s}
                </button>
              ))}
            </div>
          ) : null}
          <form
            class="ask"
            onSubmit={(e) => {
              e.preventDefault();
              void ask(text);
            }}
          >
            <textarea
              rows={2}
              value={text}
              aria-label="Question about this page"
              placeholder={`Ask about ${target?.title || "this page"}…`}
              onInput={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  void ask(text);
                }
              }}
            />
            {busy ? (
              <button type="button" class="btn danger run" onClick={() => asking.current?.abort()}>
                <Icon name="stop" size={12} /> Stop
              </button>
            ) : (
              <button type="submit" class="btn primary run" disabled={!text.trim() || !target}>
                Ask <Icon name="send" size={14} />
              </button>
            )}
          </form>
        </>
      ) : null}
    </div>
  );
}
