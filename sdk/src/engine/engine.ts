import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TakeSnapshotResultSchema } from "@baton/gen/baton/v1/descriptors";
import type { CdpTransport } from "../cdp/transport.js";
import { PageSession } from "./page/page-session.js";
import type { RefTable } from "./snapshot/refs.js";
import type { PageSnapshot } from "./snapshot/snapshot.js";
import { type EngineOptions, type PageSnapshotOptions, PageState, type SnapshotParams } from "./page-state.js";
import { Targeting } from "./targeting.js";
import { Evidence } from "./evidence.js";
import type { EngineParts } from "./parts.js";

export type { EngineOptions } from "./page-state.js";
export type { EngineParts } from "./parts.js";

/**
 * The eyes and hands on one page at a time: the composition of the page state, targeting and
 * evidence that the tool handlers (`handlers.ts`), the CLI and the extension hold. Its own
 * methods are the page-level ones callers use; actions reach the parts.
 */
export class Engine implements EngineParts {
  readonly state: PageState;
  readonly targeting: Targeting;
  readonly evidence: Evidence;

  constructor(page: PageSession, options: EngineOptions = {}) {
    this.state = new PageState(page, options);
    this.targeting = new Targeting(this.state);
    this.evidence = new Evidence(this.state);
  }

  /** Opens an engine on a page target over a browser-level connection (Node, CLI, tests). */
  static async attach(transport: CdpTransport, targetId: string, options: EngineOptions = {}): Promise<Engine> {
    const page = await PageSession.attach(transport, targetId, {
      ...(options.dialogPolicy ? { dialogPolicy: options.dialogPolicy } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
    return new Engine(page, options);
  }

  /** Opens an engine on a transport already attached to one tab (`chrome.debugger`). */
  static async forTab(transport: CdpTransport, targetId: string, options: EngineOptions = {}): Promise<Engine> {
    const page = await PageSession.open(transport, "", targetId, {
      ...(options.dialogPolicy ? { dialogPolicy: options.dialogPolicy } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
    return new Engine(page, options);
  }

  /** The page the engine acts on. */
  get page(): PageSession {
    return this.state.page;
  }

  /** The refs of every snapshot taken, across pages. */
  get refs(): RefTable {
    return this.state.refs;
  }

  /** The options the engine was opened with. */
  get options(): EngineOptions {
    return this.state.options;
  }

  /** Moves the engine to another page (tab switch); refs of other pages stay resolvable. */
  usePage(page: PageSession): void {
    this.state.usePage(page);
  }

  /** Forgets the snapshot the model was last given: the next take_snapshot returns the whole page. */
  forgetSeenSnapshot(): void {
    this.state.forgetSeenSnapshot();
  }

  /** The last whole-page snapshot taken (for the CLI's JSON and for tests). */
  get lastSnapshot(): PageSnapshot | undefined {
    return this.state.lastSnapshot;
  }

  /** A whole-page snapshot, reused while the page is still (see `PageState.pageSnapshot`). */
  pageSnapshot(options: PageSnapshotOptions = {}): Promise<PageSnapshot> {
    return this.state.pageSnapshot(options);
  }

  /** The take_snapshot tool: one page of the snapshot (of one element with `ref`), with an optional labelled screenshot. */
  async snapshot(params: Omit<SnapshotParams, "scope"> & { ref?: string }): Promise<MessageInitShape<typeof TakeSnapshotResultSchema>> {
    const { ref, ...rest } = params;
    const scope = ref ? (await this.targeting.resolve(ref, "ref")).entry : undefined;
    return this.state.snapshot({ ...rest, ...(scope ? { scope } : {}) });
  }

  /** Stops listening to the page. The transport stays with its owner. */
  dispose(): void {
    this.state.dispose();
  }
}
