import type { MessageInitShape } from "@bufbuild/protobuf";
import type { TabSchema } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";
import { openableUrl, sanitizeText, sanitizeUrl } from "@baton/sdk/engine";
import { decideUrl, hasSiteLists, openUrlPolicy, type UrlPolicy } from "@baton/sdk/policy";
import { holdTabRequests, releaseTabRequests } from "./net-rules.js";
import { TabDriver } from "./tab-driver.js";

type TabView = MessageInitShape<typeof TabSchema>;

/** Which tabs a run owns; the part of a run record that tabs change. */
export interface OwnedTabs {
  readonly startTabId: number;
  readonly activeTabId: number;
  readonly tabIds: readonly number[];
  readonly groupId?: number;
}

/** What the agent's tabs tell the run. */
export interface AgentTabsHooks {
  /** The owned tabs changed (persist them, so a reopened panel knows them). */
  onChange(tabs: OwnedTabs): void;
  /** The debugger left a tab on its own (the user cancelled it, the tab closed). */
  onDetach(tabId: number, reason: string): void;
}

/** Waits until a tab has loaded (or 15 s pass). */
export async function waitLoaded(tabId: number, capMs = 15_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (!tab || (tab.status === "complete" && !tab.pendingUrl) || Date.now() - started > capMs) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The tabs the agent may touch: the tab the task started in, the tabs it opened (`open_tab`),
 * and tabs those opened themselves (a link with target=_blank). They are grouped as
 * `Task(<id>)` so the user sees the boundary. Everything else is the user's: `switch_tab` or
 * `close_tab` on another tab is refused with a tool error, and the debugger never attaches to
 * it. Tab ids are Chrome's tab ids, as strings. While it holds them, their requests (frames,
 * subresources, WebSockets) are held to the site policy in the network (`net-rules.ts`).
 */
export class AgentTabs {
  readonly #drivers = new Map<number, TabDriver>();
  readonly #startTabId: number;
  #active: number;
  #groupId: number | undefined;
  #title = "Task";
  #withoutDebugger = false;
  /** Tabs closed for the policy since the model last heard, as evidence notes. */
  #refusedNotes: string[] = [];
  #policy: UrlPolicy;
  /** The network rules' updates, one after another, so the last word is the current tabs and policy. */
  #held: Promise<void> = Promise.resolve();
  #released = false;

  constructor(
    owned: OwnedTabs,
    private readonly hooks: AgentTabsHooks,
    /** The URL policy tabs are held to (the site lists are the user's, when they have any). */
    policy: UrlPolicy = openUrlPolicy,
  ) {
    this.#policy = policy;
    this.#startTabId = owned.startTabId;
    this.#active = owned.activeTabId;
    this.#groupId = owned.groupId;
    for (const id of owned.tabIds) this.#drivers.set(id, this.#driver(id));
  }

  /** The URL policy the tabs, the engine and the tabs' requests are held to now. */
  get policy(): UrlPolicy {
    return this.#policy;
  }

  /** Holds the tabs to another policy from now on (the user's or the backend's lists changed). */
  usePolicy(policy: UrlPolicy): Promise<void> {
    this.#policy = policy;
    return this.holdRequests();
  }

  /**
   * Holds the owned tabs' requests to the policy (Chrome's session rules for their tab ids), or
   * updates the rules after the tabs or the policy changed. Resolves once Chrome has them.
   */
  holdRequests(): Promise<void> {
    const next = this.#held.then(() => (this.#released ? undefined : holdTabRequests(this.#policy, [...this.#drivers.keys()])));
    // A failed update leaves the chain usable; the caller that awaits it hears of the failure.
    this.#held = next.catch(() => undefined);
    return next;
  }

  /** Lets the tabs' requests go: the rules are removed, and no later change sets them again. */
  releaseRequests(): Promise<void> {
    this.#released = true;
    const next = this.#held.then(() => releaseTabRequests());
    this.#held = next.catch(() => undefined);
    return next;
  }

  /** Names the tab group after the session: `Task(<id>)`. */
  nameAfter(sessionId: string): void {
    this.#title = `Task(${sessionId.replace(/^ses_/, "").slice(0, 6)})`;
  }

  #driver(tabId: number): TabDriver {
    const d = new TabDriver(tabId, { onDetach: (id, reason) => this.hooks.onDetach(id, reason) });
    if (this.#withoutDebugger) void d.withoutDebugger();
    return d;
  }

  /** Reaches every tab, now and later, through the page instead of the debugger. */
  async withoutDebugger(): Promise<void> {
    this.#withoutDebugger = true;
    await Promise.all(this.drivers().map((d) => d.withoutDebugger()));
  }

  /** The owned tabs, as a run record keeps them. */
  get owned(): OwnedTabs {
    return {
      startTabId: this.#startTabId,
      activeTabId: this.#active,
      tabIds: [...this.#drivers.keys()],
      ...(this.#groupId !== undefined ? { groupId: this.#groupId } : {}),
    };
  }

  /** The tab the agent acts in. */
  get active(): TabDriver {
    const d = this.#drivers.get(this.#active);
    if (!d) throw new ToolFailure(ToolErrorCode.TARGET_GONE, "The agent's tab was closed. Open a tab with open_tab.");
    return d;
  }

  /** Whether the agent owns this tab. */
  owns(tabId: number): boolean {
    return this.#drivers.has(tabId);
  }

  /** Every driver (to release them all). */
  drivers(): TabDriver[] {
    return [...this.#drivers.values()];
  }

  /** Puts the owned tabs in the task's group (once; a tab the user already grouped stays in theirs). */
  async group(): Promise<void> {
    const loose: number[] = [];
    for (const id of this.#drivers.keys()) {
      const tab = await chrome.tabs.get(id).catch(() => undefined);
      if (tab && (tab.groupId === -1 || tab.groupId === undefined)) loose.push(id);
    }
    if (loose.length === 0) return;
    try {
      const tabIds = loose as [number, ...number[]];
      const groupId = await chrome.tabs.group(this.#groupId !== undefined ? { groupId: this.#groupId, tabIds } : { tabIds });
      if (this.#groupId === undefined) await chrome.tabGroups.update(groupId, { title: this.#title, color: "purple" });
      this.#groupId = groupId;
      this.#changed();
    } catch {
      // A window type without groups (a popup): the tabs stay owned, just not grouped.
    }
  }

  /**
   * A tab was created: adopt it when one of the agent's tabs opened it, unless its URL is one
   * the policy refuses; then it is closed, and the model hears of it with its next result.
   */
  async adopt(tab: chrome.tabs.Tab): Promise<void> {
    if (tab.id === undefined || this.#drivers.has(tab.id) || tab.openerTabId === undefined || !this.#drivers.has(tab.openerTabId)) return;
    const url = tab.pendingUrl || tab.url || "";
    const d = url ? decideUrl(this.policy, url, "tab") : undefined;
    if (d && !d.allow) {
      await chrome.tabs.remove(tab.id).catch(() => undefined);
      this.#refusedNotes.push(`the page opened a tab that was closed at once: ${sanitizeUrl(url)}: ${d.reason}`);
      return;
    }
    this.#drivers.set(tab.id, this.#driver(tab.id));
    this.#changed();
    await this.group();
  }

  /** A tab was closed. */
  removed(tabId: number): void {
    if (!this.#drivers.delete(tabId)) return;
    if (this.#active === tabId) {
      const next = [...this.#drivers.keys()][0];
      if (next !== undefined) this.#active = next;
    }
    this.#changed();
  }

  #changed(): void {
    this.hooks.onChange(this.owned);
    this.holdRequests().catch((e: unknown) => console.error("Baton could not hold the agent's tabs to the site policy:", e));
  }

  #own(raw: string, field: string): TabDriver {
    const id = Number(raw.trim());
    const d = Number.isInteger(id) ? this.#drivers.get(id) : undefined;
    if (!d) {
      throw new ToolFailure(
        ToolErrorCode.PERMISSION_DENIED,
        `Tab ${JSON.stringify(sanitizeText(raw, 64))} is not one of the agent's tabs: it belongs to the user, and the agent may not read or act on it. Call list_tabs to see the agent's tabs.`,
        { field },
      );
    }
    return d;
  }

  /** Notes about tabs closed for the policy since the last call, for the next result's evidence. */
  takeNotes(): string[] {
    const notes = this.#refusedNotes;
    this.#refusedNotes = [];
    return notes;
  }

  /**
   * The open_tab tool: a new tab next to the active one, owned and grouped. Under site lists it
   * opens blank and loads the page once the network rules hold it, so not even the page's first
   * frame or script goes out before them.
   */
  async open(url: string): Promise<TabView> {
    const checked = url ? openableUrl(url, this.policy) : "";
    const loadLater = !!checked && hasSiteLists(this.policy);
    const opener = await chrome.tabs.get(this.#active).catch(() => undefined);
    const tab = await chrome.tabs.create({
      ...(checked ? { url: loadLater ? "about:blank" : checked } : {}),
      active: true,
      ...(opener ? { openerTabId: opener.id, windowId: opener.windowId, index: opener.index + 1 } : {}),
    });
    if (tab.id === undefined) throw new ToolFailure(ToolErrorCode.INTERNAL, "Chrome opened no tab.");
    this.#drivers.set(tab.id, this.#driver(tab.id));
    this.#active = tab.id;
    this.#changed();
    if (loadLater) {
      await this.holdRequests();
      await chrome.tabs.update(tab.id, { url: checked });
    }
    await this.group();
    if (checked) await waitLoaded(tab.id);
    return this.view(tab.id);
  }

  /** The switch_tab tool. */
  async switchTo(raw: string): Promise<TabView> {
    const d = this.#own(raw, "tab_id");
    this.#active = d.tabId;
    await chrome.tabs.update(d.tabId, { active: true }).catch(() => undefined);
    this.#changed();
    return this.view(d.tabId);
  }

  /** The close_tab tool (the active tab when none is named). */
  async close(raw: string): Promise<{ tabs: TabView[]; activeTabId: string }> {
    const d = raw.trim() ? this.#own(raw, "tab_id") : this.active;
    await d.release();
    await chrome.tabs.remove(d.tabId).catch(() => undefined);
    this.removed(d.tabId);
    return this.list();
  }

  /** The list_tabs tool: the agent's tabs only. */
  async list(): Promise<{ tabs: TabView[]; activeTabId: string }> {
    const tabs: TabView[] = [];
    for (const id of this.#drivers.keys()) tabs.push(await this.view(id));
    return { tabs, activeTabId: String(this.#active) };
  }

  /** A tab as tools report it. */
  async view(tabId: number): Promise<TabView> {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    return {
      tabId: String(tabId),
      url: sanitizeUrl(tab?.url ?? tab?.pendingUrl ?? ""),
      title: sanitizeText(tab?.title ?? "", 200),
      active: tabId === this.#active,
    };
  }
}
