import type { MessageInitShape } from "@bufbuild/protobuf";
import { type ClientToolHandlers, toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import type { ImageSchema, NavigateResultSchema, ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { type ApprovalDecision, describeCall, type RefLookup, type RunContext } from "@baton/sdk/client";
import { callRisk, pageActionClass, ToolErrorCode, ToolFailure, toolByCase } from "@baton/sdk/contract";
import { Engine, type EngineHandlers, type EngineToolCase, engineHandlers, openableUrl, sanitizeUrl } from "@baton/sdk/engine";
import { type DomEngine, domHandlers } from "@baton/sdk/engine/dom";
import { create } from "@bufbuild/protobuf";
import type { AgentTabs } from "./agent-tabs.js";
import { waitLoaded } from "./agent-tabs.js";
import type { PauseGate } from "./pause-gate.js";
import { type TabConnection, type TabDriver, withoutDebuggerReason } from "./tab-driver.js";
import { outsideFolders, refuseUnlessAllowed, guardUploads, type RememberedDecision, refusedByDecision, rememberedFor, siteOf, type UploadFile } from "@baton/sdk/policy";
import type { ApprovalRules, RememberScope } from "./approval-rules.js";
import { addUploadFolders, readUploadFolders } from "./upload-folders.js";
import { extensionUploadRule, foldersToOffer, type UploadAsk } from "./upload-paths.js";

/** Something the panel shows beside the timeline's steps. */
export type Notice =
  | { readonly kind: "restricted"; readonly url: string }
  | { readonly kind: "dom-fallback"; readonly why: string; readonly byUser: boolean };

/** A page, as an approval card names it. */
export interface PageRef {
  readonly title: string;
  readonly url: string;
}

/** A call the user's approval policy asks about before it runs (the backend did not hold it). */
export interface ChangeApproval {
  readonly toolcallId: string;
  /** What will happen, in words ("Clicking 'Add to cart'"). */
  readonly description: string;
  /** The page it happens on. */
  readonly page: PageRef;
  /** An upload of files from outside the upload folders. */
  readonly upload?: UploadAsk;
  /** What an "always" or "never on this site" answer covers (every-change cards on an http(s) page). */
  readonly remember?: RememberScope;
}

/** An answer to a panel card: an approval, or (upload cards) "always allow files from" its offered folders. */
export type CardDecision = ApprovalDecision & { readonly addFolders?: boolean };

/** What the executor needs from the panel. */
export interface ExecutorUi {
  /** Asks the user a question (ask_user) and resolves with the answer. */
  ask(question: string, choices: readonly string[], signal: AbortSignal): Promise<string>;
  /** Asks the user to approve a change (the "every change" policy) or an upload from outside the upload folders. */
  approve(request: ChangeApproval, signal: AbortSignal): Promise<CardDecision>;
  /** A screenshot a tool took. */
  image(toolcallId: string, image: MessageInitShape<typeof ImageSchema>): void;
  /** Something the user should know about the tab. */
  notice(notice: Notice): void;
}

/** Options of {@link createExecutor}. */
export interface ExecutorOptions {
  readonly tabs: AgentTabs;
  readonly pause: PauseGate;
  readonly ui: ExecutorUi;
  /** Ask before every call that changes a page, not only what the backend holds. */
  readonly askEveryChange: () => boolean;
  /** The remembered approvals (the loop's own store), consulted before an every-change card and added to by its answer. */
  readonly rules: ApprovalRules;
}

/** How the model is told to leave a remembered "never" alone, and how the user undoes it. */
const undoNever = "The user can undo this in the Baton panel's Settings → Remembered approvals.";

/** The engine's tools, by case (all client tools but ask_user). */
const engineCases = Object.values(toolCatalog.tools)
  .filter((t) => t.side === "client" && t.case !== "askUser")
  .map((t) => t.case as EngineToolCase);

/** Tools the tab set answers itself, whatever the tab's connection. */
const tabCases = new Set<EngineToolCase>(["openTab", "switchTab", "closeTab", "listTabs"]);

type AnyHandler = (params: object, ctx: RunContext) => Promise<unknown>;

/**
 * The run's tool handlers: each engine tool runs in the agent's active tab through that tab's
 * connection (the CDP engine over `chrome.debugger`, or the DOM fallback), with the mask
 * relaxed for the call and an outline on the element it names; tab tools go through the
 * agent's tab set (its own tabs only); `ask_user` and the "every change" approvals go to the
 * panel. One engine serves every debugger tab of the run, so a ref is never reused, even
 * across tabs and re-attaches.
 */
export function createExecutor(o: ExecutorOptions): { handlers: ClientToolHandlers<RunContext>; lookup: RefLookup } {
  let engine: Engine | undefined;
  let cdpHandlers: EngineHandlers<RunContext> | undefined;
  const domByEngine = new WeakMap<DomEngine, EngineHandlers<RunContext>>();
  const noticed = new Set<string>();
  /**
   * How each tab was last read (debugger or page). The two engines number their refs apart, so
   * after a switch an old ref could name another element: it is refused until a new snapshot.
   */
  const readBy = new Map<number, TabConnection["kind"]>();

  const lookup: RefLookup = (ref) => {
    const e = engine?.refs.get(ref);
    return e ? { role: e.role, name: e.name } : undefined;
  };

  const handlersFor = (conn: Exclude<TabConnection, { kind: "restricted" }>): EngineHandlers<RunContext> => {
    if (conn.kind === "debugger") {
      // Read at each use: the run's policy follows the user's and the backend's lists as they change.
      if (!engine) engine = new Engine(conn.page, { get urlPolicy() { return o.tabs.policy; } });
      else if (engine.page !== conn.page) engine.usePage(conn.page);
      cdpHandlers ??= engineHandlers<RunContext>(engine);
      return cdpHandlers;
    }
    let h = domByEngine.get(conn.engine);
    if (!h) domByEngine.set(conn.engine, (h = domHandlers<RunContext>(conn.engine)));
    return h;
  };

  const notice = (n: Notice, key: string) => {
    if (noticed.has(key)) return;
    noticed.add(key);
    o.ui.notice(n);
  };

  /** navigate on a page the extension may not enter: Chrome's tab API can still leave it. */
  const navigateAway = async (driver: TabDriver, url: string): Promise<MessageInitShape<typeof NavigateResultSchema>> => {
    const target = openableUrl(url, o.tabs.policy);
    await chrome.tabs.update(driver.tabId, { url: target });
    await new Promise((r) => setTimeout(r, 50));
    await waitLoaded(driver.tabId);
    driver.reset();
    const tab = await chrome.tabs.get(driver.tabId);
    await driver.connect();
    return { url: sanitizeUrl(tab.url ?? target), title: tab.title ?? "", httpStatus: 0, evidence: { url: sanitizeUrl(tab.url ?? target), title: tab.title ?? "", navigated: true } };
  };

  const run = async (tool: EngineToolCase, params: object, ctx: RunContext): Promise<unknown> => {
    await o.pause.wait(ctx.signal);
    if (tabCases.has(tool)) return tabTool(tool, params);
    const driver = o.tabs.active;
    const conn = await driver.connect();
    if (conn.kind === "restricted") {
      if (tool === "navigate") return navigateAway(driver, (params as { url: string }).url);
      notice({ kind: "restricted", url: conn.url }, `restricted:${conn.url}`);
      throw new ToolFailure(
        ToolErrorCode.PERMISSION_DENIED,
        `This tab shows ${sanitizeUrl(conn.url) || "a browser page"}, which Chrome does not let extensions read or control. Open a web page in it with navigate, or ask the user to switch to a tab with a web page.`,
      );
    }
    if (conn.kind === "dom") notice({ kind: "dom-fallback", why: conn.why, byUser: conn.why.startsWith(withoutDebuggerReason) }, `dom:${driver.tabId}`);
    const spec = toolByCase(toolCatalog, tool);
    const call = create(toolCatalog.call, { tool: { case: tool, value: params } as never }) as ToolCall;
    const description = describeCall(call, lookup);
    const pageNow = async () => {
      const tab = await chrome.tabs.get(driver.tabId).catch(() => undefined);
      return { title: tab?.title ?? "", url: sanitizeUrl(tab?.url ?? "") };
    };
    // The engine holds its calls to the site policy itself; through the page, the same rule is
    // asked here, before any card asks the user about a call that would be refused.
    if (conn.kind === "dom" && spec) refuseUnlessAllowed(o.tabs.policy, (await pageNow()).url, pageActionClass(spec, params as never));
    // The upload rule: files from the upload folders go ahead, any other waits for the user's
    // card with its full path; what the rule resolved is what Chrome gets.
    let asked = false;
    // (Through the page, uploads are unavailable: the DOM fallback says so itself.)
    if (tool === "uploadFile" && conn.kind === "debugger") {
      const folders = await readUploadFolders();
      const outside = async (files: readonly UploadFile[]) => {
        asked = true;
        const upload = { files: files.map((f) => f.path), folders, offer: foldersToOffer(files.map((f) => f.path)) };
        const decision = await o.ui.approve({ toolcallId: ctx.toolcallId, description, page: await pageNow(), upload }, ctx.signal);
        // "Always allow files from …" adds to the upload folders: the one rule for uploads, listed in Settings.
        if (decision.approved && decision.addFolders && upload.offer.length > 0) await addUploadFolders(upload.offer);
        return decision.approved
          ? { approved: true as const }
          : {
              approved: false as const,
              code: ToolErrorCode.DENIED,
              reason: `The user did not allow uploading ${files.map((f) => JSON.stringify(f.path)).join(", ")}, ${files.length > 1 ? "which are" : "which is"} ${outsideFolders(folders)}. Do not try another path; ask the user which file to upload.`,
            };
      };
      params = await guardUploads(async (p: { paths: readonly string[] }) => p, { rule: extensionUploadRule(folders), outside })(params as { paths: readonly string[] }, ctx);
    }
    if (spec && !asked && o.askEveryChange() && callRisk(spec, params as never) === "mutating") await askChange(spec.name, "mutating", description, ctx, await pageNow());
    const ref = (params as { ref?: string; fromRef?: string }).ref || (params as { fromRef?: string }).fromRef;
    const lastRead = readBy.get(driver.tabId);
    if (ref && lastRead && lastRead !== conn.kind) {
      throw new ToolFailure(
        ToolErrorCode.STALE_REF,
        "This tab is now read through the page instead of the debugger, so refs from earlier snapshots are no longer valid. Take a snapshot first.",
        { field: "ref" },
      );
    }
    const box = ref ? engine?.refs.get(ref)?.box : undefined;
    if (conn.kind === "debugger" && box && tool !== "screenshot") void driver.highlight(box, description);
    // The pill's text stays as it is: new text can load font glyphs, which the engine counts as
    // a change, and the snapshot this call takes could not be reused by the next. A screenshot
    // is taken without the mask: the model should see the page, not Baton's frame on it.
    const pictures = tool === "screenshot" || (tool === "takeSnapshot" && (params as { includeScreenshot?: boolean }).includeScreenshot === true);
    await driver.mask(pictures ? "off" : "acting");
    let result: unknown;
    try {
      result = await (handlersFor(conn)[tool] as AnyHandler)(params, ctx);
    } catch (e) {
      if (o.pause.reason) {
        // The user cancelled the debugger in the middle of this call: wait for them, then let
        // the model check what happened instead of assuming either way.
        await o.pause.wait(ctx.signal);
        throw new ToolFailure(ToolErrorCode.INTERRUPTED, "The user paused the debugger during this call, so it may or may not have taken effect. Take a snapshot before repeating it.");
      }
      throw e;
    } finally {
      driver.relax();
    }
    // Tabs a page opened and the policy closed (see AgentTabs.adopt) are told with this result.
    const evidence = (result as { evidence?: { notes?: string[] } } | undefined)?.evidence;
    if (evidence) evidence.notes = [...(evidence.notes ?? []), ...o.tabs.takeNotes()];
    if (tool === "takeSnapshot") readBy.set(driver.tabId, conn.kind);
    const image = (result as { screenshot?: MessageInitShape<typeof ImageSchema>; image?: MessageInitShape<typeof ImageSchema> } | undefined);
    const shot = image?.screenshot ?? image?.image;
    if (shot?.data && shot.data.length > 0) o.ui.image(ctx.toolcallId, shot);
    return result;
  };

  /**
   * The "every change" card, after the user's remembered approvals: an "always" for this action
   * class on the page's site lets the call go unasked, a "never" refuses it; otherwise the card
   * asks, and an "always" or "never on this site" answer is stored where the loop keeps its own
   * (so one list, one Revoke). The loop's matcher (`rememberedFor`) decides what applies.
   */
  const askChange = async (tool: string, risk: RememberScope["risk"], description: string, ctx: RunContext, page: { title: string; url: string }): Promise<void> => {
    const site = siteOf(page.url);
    // Rules that cannot be read are no rules: the card asks, as it would without them.
    const remembered = site ? rememberedFor(await o.rules.decisions().catch(() => []), page.url, risk, Date.now()) : undefined;
    if (remembered) {
      if (remembered.allow) return;
      throw new ToolFailure(ToolErrorCode.DENIED, `${refusedByDecision(remembered, `this ${tool} call`)} ${undoNever}`);
    }
    const decision = await o.ui.approve({ toolcallId: ctx.toolcallId, description, page, ...(site ? { remember: { site, risk } } : {}) }, ctx.signal);
    let kept: RememberedDecision | undefined;
    if (site && decision.scope === "site") {
      // The answer holds for this call whatever happens to storing it.
      kept = await o.rules
        .remember({ site, risk, allow: decision.approved, tool, ...(decision.expiresAt !== undefined ? { expiresAt: decision.expiresAt } : {}) })
        .catch((e: unknown) => (console.error("Baton could not remember the answer on this site:", e), undefined));
    }
    if (decision.approved) return;
    if (kept) throw new ToolFailure(ToolErrorCode.DENIED, `${refusedByDecision(kept, `this ${tool} call`)} ${undoNever}`);
    throw new ToolFailure(ToolErrorCode.DENIED, `The user did not allow this${decision.reason ? `: ${decision.reason}` : "."} Do not try it again another way; ask the user or finish.`);
  };

  const tabTool = async (tool: EngineToolCase, params: object): Promise<unknown> => {
    const p = params as { url?: string; tabId?: string };
    switch (tool) {
      case "openTab":
        return { tab: await o.tabs.open(p.url ?? "") };
      case "switchTab":
        return { tab: await o.tabs.switchTo(p.tabId ?? "") };
      case "closeTab":
        return o.tabs.close(p.tabId ?? "");
      default:
        return o.tabs.list();
    }
  };

  const handlers = Object.fromEntries(engineCases.map((c) => [c, (p: object, ctx: RunContext) => run(c, p, ctx)])) as unknown as EngineHandlers<RunContext>;
  return {
    handlers: {
      ...handlers,
      askUser: async (p, ctx) => ({ answer: await o.ui.ask(p.question, p.choices, ctx.signal) }),
    },
    lookup,
  };
}
