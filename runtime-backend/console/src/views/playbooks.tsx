/** Playbooks: the list, an editor, version history with a diff, roll back, and a match tester. */
import type { Playbook } from "@baton/gen/baton/v1/agent_pb";
import { type DiffLine, DiffOp, type MatchPlaybooksResponse } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { agentApi, consoleApi, errorText } from "../client.js";
import { ago, when } from "../format.js";
import { navigate } from "../router.js";
import { Empty, ErrorNote, onSubmitRun, PageHeader } from "../ui.js";
import { useList } from "../use-list.js";

const list = (s: string) =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter(Boolean);

function Editor(p: { playbook?: Playbook; onSaved: (pb: Playbook) => void; onCancel?: () => void }) {
  const pb = p.playbook;
  const [name, setName] = useState(pb?.name ?? "");
  const [description, setDescription] = useState(pb?.description ?? "");
  const [instructions, setInstructions] = useState(pb?.instructions ?? "");
  const [keywords, setKeywords] = useState(pb?.keywords.join(", ") ?? "");
  const [urls, setUrls] = useState(pb?.urlPatterns.join("\n") ?? "");
  const [error, setError] = useState<string>();
  useEffect(() => {
    setDescription(pb?.description ?? "");
    setInstructions(pb?.instructions ?? "");
    setKeywords(pb?.keywords.join(", ") ?? "");
    setUrls(pb?.urlPatterns.join("\n") ?? "");
  }, [pb?.name, pb?.version]);
  return (
    <form
      class="editor"
      onSubmit={onSubmitRun(async () => {
        const playbook = { name: pb?.name ?? name.trim(), description, instructions, keywords: list(keywords), urlPatterns: list(urls) };
        const r = pb ? await agentApi.updatePlaybook({ playbook }) : await agentApi.createPlaybook({ playbook });
        setError(undefined);
        if (r.playbook) p.onSaved(r.playbook);
      }, setError)}
    >
      {pb ? null : (
        <label>
          Name
          <input required value={name} pattern="[\w.\-]{1,100}" onInput={(e) => setName(e.currentTarget.value)} placeholder="checkout-flow" />
        </label>
      )}
      <label>
        Description
        <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} placeholder="What it is for" maxLength={2000} />
      </label>
      <label>
        Instructions
        <textarea required rows={10} value={instructions} onInput={(e) => setInstructions(e.currentTarget.value)} maxLength={20000} />
      </label>
      <div class="two">
        <label>
          Keywords <span class="muted small">(comma-separated)</span>
          <input value={keywords} onInput={(e) => setKeywords(e.currentTarget.value)} placeholder="checkout, order" />
        </label>
        <label>
          URL patterns <span class="muted small">(one per line, * wildcard)</span>
          <textarea rows={2} value={urls} onInput={(e) => setUrls(e.currentTarget.value)} placeholder="shop.example.com/*" />
        </label>
      </div>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" class="primary">
          {pb ? `Save as version ${pb.version + 1}` : "Create playbook"}
        </button>
        {p.onCancel ? (
          <button type="button" class="ghost" onClick={p.onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function Diff(p: { lines: DiffLine[] }) {
  return (
    <pre class="diff" aria-label="Differences">
      {p.lines.map((l) => (
        <div class={l.op === DiffOp.ADDED ? "add" : l.op === DiffOp.REMOVED ? "del" : ""}>
          <span aria-hidden="true">{l.op === DiffOp.ADDED ? "+ " : l.op === DiffOp.REMOVED ? "− " : "  "}</span>
          {l.text}
        </div>
      ))}
    </pre>
  );
}

function History(p: { name: string; latest: number; onRolledBack: (pb: Playbook) => void }) {
  const [versions, setVersions] = useState<Playbook[]>([]);
  const [from, setFrom] = useState(0);
  const [diff, setDiff] = useState<DiffLine[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    consoleApi.listPlaybookVersions({ name: p.name }).then(
      (r) => {
        setVersions(r.versions);
        setFrom(r.versions[1]?.version ?? r.versions[0]?.version ?? 0);
      },
      (e) => setError(errorText(e)),
    );
  }, [p.name, p.latest]);
  useEffect(() => {
    if (!from) return;
    consoleApi.diffPlaybookVersions({ name: p.name, fromVersion: from, toVersion: p.latest }).then(
      (r) => setDiff(r.lines),
      (e) => setError(errorText(e)),
    );
  }, [from, p.latest]);
  return (
    <div>
      <h2>History</h2>
      <ErrorNote error={error} />
      <ol class="versions">
        {versions.map((v) => (
          <li class={v.version === from ? "selected" : ""}>
            <span class="v">v{v.version}</span>
            <span class="muted small">{when(v.createdAt)}</span>
            {v.version !== p.latest ? (
              <>
                <button type="button" class="ghost small" aria-pressed={v.version === from} onClick={() => setFrom(v.version)}>
                  Compare v{v.version}
                </button>
                <button
                  type="button"
                  class="ghost small"
                  onClick={async () => {
                    try {
                      const r = await consoleApi.rollBackPlaybook({ name: p.name, version: v.version });
                      if (r.playbook) p.onRolledBack(r.playbook);
                    } catch (e) {
                      setError(errorText(e));
                    }
                  }}
                >
                  Roll back to v{v.version}
                </button>
              </>
            ) : (
              <span class="pill pill-ok">latest</span>
            )}
          </li>
        ))}
      </ol>
      {diff && from !== p.latest ? (
        <>
          <h3>
            v{from} → v{p.latest}
          </h3>
          <Diff lines={diff} />
        </>
      ) : null}
    </div>
  );
}

function MatchTester() {
  const [task, setTask] = useState("");
  const [url, setUrl] = useState("");
  const [r, setR] = useState<MatchPlaybooksResponse>();
  const [error, setError] = useState<string>();
  return (
    <div class="card">
      <h2>Test the match rules</h2>
      <form
        class="inline wrap"
        onSubmit={onSubmitRun(async () => {
          setR(await consoleApi.matchPlaybooks({ task, url }));
          setError(undefined);
        }, setError)}
      >
        <input aria-label="Task" placeholder="A task, e.g. “order the blue mug”" value={task} onInput={(e) => setTask(e.currentTarget.value)} />
        <input aria-label="Start URL" placeholder="https://shop.example.com/cart" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        <button type="submit">Test</button>
      </form>
      <ErrorNote error={error} />
      {r ? (
        <div class="match-result" role="status">
          {r.chosen ? (
            <p>
              A session would use <b>{r.chosen}</b>.
            </p>
          ) : (
            <p>No playbook matches: the session runs without one.</p>
          )}
          <ul>
            {r.matches
              .filter((m) => m.score > 0)
              .map((m) => (
                <li>
                  <b>{m.name}</b> scores {m.score}: {[...m.urlPatterns.map((u) => `URL ${u}`), ...m.keywords.map((k) => `keyword “${k}”`)].join(", ")}
                </li>
              ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

/** The playbooks page (`name` selects one). */
export function PlaybooksPage(p: { name: string }) {
  const { items: playbooks, error, reload: load } = useList(() => agentApi.listPlaybooks({}).then((r) => r.playbooks));
  const [creating, setCreating] = useState(false);
  const selected = playbooks?.find((x) => x.name === p.name);
  const saved = (pb: Playbook) => {
    setCreating(false);
    void load();
    navigate(`/playbooks/${encodeURIComponent(pb.name)}`);
  };
  return (
    <section>
      <PageHeader title="Playbooks" sub="Versioned instructions the agent follows when a task matches their rules.">
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New playbook
        </button>
      </PageHeader>
      <ErrorNote error={error} />
      <div class="columns">
        <nav class="card side list" aria-label="Playbooks">
          {playbooks && playbooks.length === 0 ? <Empty title="No playbooks yet" /> : null}
          {(playbooks ?? []).map((pb) => (
            <a href={`/playbooks/${encodeURIComponent(pb.name)}`} class={pb.name === p.name ? "active" : ""} aria-current={pb.name === p.name ? "page" : undefined}>
              <span class="pb-name">{pb.name}</span>
              <span class="muted small">
                v{pb.version} · {ago(pb.createdAt)}
              </span>
            </a>
          ))}
        </nav>
        <div class="grow">
          {creating ? (
            <div class="card">
              <h2>New playbook</h2>
              <Editor onSaved={saved} onCancel={() => setCreating(false)} />
            </div>
          ) : selected ? (
            <>
              <div class="card">
                <h2>
                  {selected.name} <span class="muted">v{selected.version}</span>
                </h2>
                <Editor playbook={selected} onSaved={saved} />
              </div>
              <div class="card">
                <History name={selected.name} latest={selected.version} onRolledBack={saved} />
              </div>
            </>
          ) : (
            <Empty title="Choose a playbook">or create one. Each save keeps the earlier versions.</Empty>
          )}
          <MatchTester />
        </div>
      </div>
    </section>
  );
}
