import { Agent, type AgentOptions } from "../loop/agent.js";
import { ScriptProvider, type ScriptSource } from "../providers/script.js";
import type { ModelRequest, ModelTurn, Provider } from "../providers/types.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { ensureUser } from "../store/users.js";

/** A provider wrapper that records every request (tests assert on prompts and call counts). */
export class RecordingProvider implements Provider {
  readonly name: string;
  readonly requests: ModelRequest[] = [];

  constructor(private readonly inner: Provider) {
    this.name = inner.name;
  }

  generate(req: ModelRequest): Promise<ModelTurn> {
    this.requests.push(req);
    return this.inner.generate(req);
  }
}

/** An agent on a fresh in-memory store, a scripted model and two users, "alice" and "bob". */
export function scriptedAgent(
  script: ScriptSource,
  options: Partial<Omit<AgentOptions, "db" | "resolveModel">> & { db?: Db } = {},
): Promise<{ agent: Agent; db: Db; model: RecordingProvider; close: () => Promise<void> }> {
  return providerAgent(new ScriptProvider(script), options);
}

/** An agent on a fresh in-memory store whose every model is `provider` (recorded), with users "alice" and "bob". */
export async function providerAgent(
  provider: Provider,
  options: Partial<Omit<AgentOptions, "db" | "resolveModel">> & { db?: Db } = {},
): Promise<{ agent: Agent; db: Db; model: RecordingProvider; close: () => Promise<void> }> {
  const db = options.db ?? (await openDb({}));
  await ensureUser(db, "alice");
  await ensureUser(db, "bob");
  const model = new RecordingProvider(provider);
  const agent = new Agent({ ...options, store: new SessionStore(db), resolveModel: (spec) => ({ provider: model, model: spec.split(":")[1] ?? "" }), defaultModel: "script:test" });
  return { agent, db, model, close: () => db.close() };
}
