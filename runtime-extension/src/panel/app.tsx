import { useEffect, useRef, useState } from "preact/hooks";
import { checkToken } from "../background/token-check.js";
import { type AuthState, loadAuth, loadSettings, missingSetup, modeOf, type Settings } from "../settings.js";
import { Composer, type TargetTab } from "./composer.js";
import { DiagnosticsView } from "./diagnostics-view.js";
import { HistoryView } from "./history-view.js";
import { Icon } from "./icons.js";
import type { PanelModel, PanelState } from "./panel-model.js";
import { StandaloneSetup } from "./model-fields.js";
import { PageChatView } from "./page-chat-view.js";
import { SecretsSection } from "./secrets-view.js";
import { SettingsView, SignIn } from "./settings-view.js";
import { SitePolicySection } from "./site-policy-view.js";
import { TrustSection } from "./trust-view.js";
import { UploadFoldersSection } from "./upload-folders-view.js";
import { TimelineView } from "./timeline-view.js";

type View = "task" | "history" | "settings" | "diagnostics" | "ask";

/** The back bar's title of each view but the task. */
const viewTitles: Record<Exclude<View, "task">, string> = {
  history: "Past sessions",
  settings: "Settings",
  diagnostics: "Diagnostics",
  ask: "About this page",
};

/** Re-renders on every change of the model. */
function useModel(model: PanelModel): PanelState {
  const [state, setState] = useState(model.state);
  useEffect(() => model.subscribe(() => setState(model.state)), [model]);
  return state;
}

/** The tab a new task acts in: the active tab of the panel's window. */
function useTargetTab(running: boolean): TargetTab | undefined {
  const [tab, setTab] = useState<TargetTab>();
  useEffect(() => {
    const read = async () => {
      const t = (await chrome.tabs.query({ active: true, currentWindow: true }))[0];
      if (t?.id !== undefined) setTab({ id: t.id, title: t.title ?? "", url: t.url ?? t.pendingUrl ?? "", favicon: t.favIconUrl ?? "" });
    };
    void read();
    const onChange = () => void read();
    chrome.tabs.onActivated.addListener(onChange);
    chrome.tabs.onUpdated.addListener(onChange);
    return () => {
      chrome.tabs.onActivated.removeListener(onChange);
      chrome.tabs.onUpdated.removeListener(onChange);
    };
  }, [running]);
  return tab;
}

/** The side panel. */
export function App({ model }: { model: PanelModel }) {
  const state = useModel(model);
  const [view, setView] = useState<View>("task");
  const [settings, setSettings] = useState<Settings>();
  const [auth, setAuth] = useState<AuthState>();
  const target = useTargetTab(state.running);
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    const read = async () => {
      setSettings(await loadSettings());
      setAuth(await loadAuth());
    };
    void read();
    // A token revoked since the last check (in the console, say) shows as signed out at once.
    void checkToken();
    const onChanged = (_c: unknown, area: string) => area === "local" && void read();
    chrome.storage.onChanged.addListener(onChanged);
    return () => chrome.storage.onChanged.removeListener(onChanged);
  }, []);

  useEffect(() => {
    if (!state.running) return;
    setView("task");
    // Escape stops the run from anywhere in the panel.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) model.stop();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [state.running]);

  if (!settings) return <div class="app loading" />;
  const standalone = modeOf(settings) === "standalone";
  // Ready to run: signed in to a backend, or (standalone) a model and the user's key.
  const signedIn = !missingSetup(settings);
  const status = state.paused ? "Paused" : state.running ? "Working" : "Ready";
  const go = (v: View) => setView(view === v ? "task" : v);

  return (
    <div class="app" data-view={view}>
      <header class="bar">
        {view === "task" ? (
          <div class="brand">
            <span class="mark">
              <Icon name="logo" size={15} />
            </span>
            Baton
            {standalone ? (
              <span class="mode-chip" title="No backend: the agent runs in this panel with your own model key">
                Standalone
              </span>
            ) : null}
          </div>
        ) : (
          <button type="button" class="icon-btn back" onClick={() => setView("task")} aria-label="Back to the task">
            <Icon name="back" />
            <span>{viewTitles[view]}</span>
          </button>
        )}
        <span class={`status ${status.toLowerCase()}`} role="status">
          <i aria-hidden="true" />
          {status}
        </span>
        <nav class="tools" aria-label="Panel">
          {settings.diagnostics ? (
            <button type="button" class={`icon-btn ${view === "diagnostics" ? "on" : ""}`} onClick={() => go("diagnostics")} aria-label="Diagnostics" title="Diagnostics">
              <Icon name="chart" />
            </button>
          ) : null}
          <button type="button" class={`icon-btn ${view === "history" ? "on" : ""}`} onClick={() => go("history")} aria-label="Past sessions" title="Past sessions">
            <Icon name="history" />
          </button>
          <button type="button" class={`icon-btn ${view === "settings" ? "on" : ""}`} onClick={() => go("settings")} aria-label="Settings" title="Settings">
            <Icon name="settings" />
          </button>
        </nav>
      </header>
      {auth?.state === "rejected" && !standalone && view === "task" ? (
        <div class="banner err" role="alert">
          Signed out: the backend refused your token. <button type="button" class="link" onClick={() => setView("settings")}>Sign in again</button>
        </div>
      ) : null}
      <main class="scroll" ref={main}>
        {view === "settings" ? (
          <>
            <SettingsView key={settings.token} settings={settings} auth={auth} />
            <SecretsSection />
            <SitePolicySection />
            <UploadFoldersSection />
            <TrustSection settings={settings} />
          </>
        ) : view === "history" ? (
          <HistoryView
            onOpen={(s) => {
              setView("task");
              void model.openPast(s);
            }}
          />
        ) : view === "diagnostics" ? (
          <DiagnosticsView />
        ) : view === "ask" ? (
          <PageChatView target={target} />
        ) : !signedIn ? (
          standalone ? <StandaloneSetup settings={settings} onAsk={() => setView("ask")} /> : <SignIn settings={settings} />
        ) : state.items.length === 0 ? (
          <Welcome />
        ) : (
          <TimelineView
            items={state.items}
            actions={{
              decide: (id, ok, keepMs) => model.decide(id, ok, keepMs),
              allowFolders: (id, folders) => model.allowFolders(id, folders),
              answer: (id, a) => model.answer(id, a),
              resumeDebugger: () => model.resumeDebugger(),
              continueWithoutDebugger: () => model.continueWithoutDebugger(),
              stop: () => model.stop(),
            }}
          />
        )}
      </main>
      {view === "task" && signedIn && state.spend ? (
        <p class="spend" title="What this task has used of its budget per task (Settings)">
          Budget: {state.spend}
        </p>
      ) : null}
      {view === "task" && signedIn ? (
        <Composer
          running={state.running}
          target={target}
          followUp={!!state.sessionId && !state.running && state.items.length > 0}
          onRun={(task) => target && void model.start(task, target.id)}
          onStop={() => model.stop()}
          onNew={() => model.newTask()}
          onAsk={() => setView("ask")}
        />
      ) : null}
    </div>
  );
}

function Welcome() {
  return (
    <section class="welcome">
      <div class="welcome-mark">
        <Icon name="logo" size={22} />
      </div>
      <h1>What should Baton do?</h1>
      <p>Describe a task. Baton works in the tab you're on, in plain sight: you can watch every step and stop it at any time.</p>
      <ul class="hints">
        <li>
          <Icon name="shield" size={14} /> Asks before anything that can't be undone
        </li>
        <li>
          <Icon name="tabs" size={14} /> Touches only this tab and the tabs it opens
        </li>
        <li>
          <Icon name="pause" size={14} /> Your clicks are held while it works; Stop hands back control
        </li>
      </ul>
    </section>
  );
}
