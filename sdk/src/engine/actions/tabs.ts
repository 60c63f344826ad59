import type { TargetInfo } from "../../cdp/protocol.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import type { PageState } from "../page-state.js";
import { PageSession } from "../page/page-session.js";
import { sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import { settle, waitUntil } from "../page/settle.js";
import { openableUrl, tabRefusal } from "../page/url-checks.js";
import { openUrlPolicy, type UrlPolicy } from "../../policy/url-policy.js";

/** A tab as tools report it. */
export interface TabView {
  tabId: string;
  url: string;
  title: string;
  active: boolean;
}

/**
 * The tabs the agent owns, over a browser-level connection (Target domain). The agent may only
 * switch to or close tabs it opened or started in; other tabs of the user are off limits.
 */
export class TabSet {
  /** The engine's page state: switching tabs moves it to another page. */
  readonly #state: PageState;
  readonly #pages = new Map<string, PageSession>();
  #active: string;

  constructor(state: PageState) {
    this.#state = state;
    this.#active = state.page.targetId;
    this.#pages.set(this.#active, state.page);
  }

  /**
   * Adopts tabs that owned pages opened (target=_blank, window.open): the agent caused them.
   * One at a URL the policy refuses is closed instead; resolves to why.
   */
  async #adopt(tabId: string): Promise<string | undefined> {
    if (this.#pages.has(tabId)) return undefined;
    const opener = [...this.#pages.values()].find((p) => p.openedTargets.includes(tabId));
    if (!opener) return undefined;
    const refused = await tabRefusal(opener, this.#policy, tabId);
    if (refused) {
      await opener.transport.send("Target.closeTarget", { targetId: tabId }).catch(() => undefined);
      return refused;
    }
    this.#pages.set(tabId, await PageSession.attach(opener.transport, tabId));
    return undefined;
  }

  get #policy(): UrlPolicy {
    return this.#state.options.urlPolicy ?? openUrlPolicy;
  }

  #own(tabId: string, field: string): PageSession {
    const page = this.#pages.get(tabId);
    if (!page || page.gone) {
      throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, `Tab ${JSON.stringify(sanitizeText(tabId, 64))} is not one of the agent's open tabs. Call list_tabs.`, { field });
    }
    return page;
  }

  /** Opens a tab (blank or at `url`) and makes it active. */
  async open(url: string): Promise<TabView> {
    const target = url ? openableUrl(url, this.#policy) : "";
    const transport = this.#state.page.transport;
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: "about:blank" });
    const page = await PageSession.attach(transport, targetId);
    this.#pages.set(targetId, page);
    this.#activate(targetId, page);
    if (target) {
      // Like navigate: the tab is reported (and the next tool runs) once its page has loaded
      // and settled, not while it is still about:blank.
      const before = page.loadsStarted;
      const r = await page.send<{ loaderId?: string }>("Page.navigate", { url: target }, page.rootId, 30_000);
      if (r.loaderId) await waitUntil(page, () => page.loadsStarted > before || page.gone !== undefined, 2000);
      await settle(page, before, this.#state.options.settle).catch(() => undefined);
    }
    return this.#view(targetId);
  }

  /** Makes an owned tab active. */
  async switch(tabId: string): Promise<TabView> {
    const refused = await this.#adopt(tabId);
    if (refused) throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, `That tab was closed: ${refused}`, { field: "tab_id" });
    const page = this.#own(tabId, "tab_id");
    this.#activate(tabId, page);
    await page.transport.send("Target.activateTarget", { targetId: tabId }).catch(() => undefined);
    return this.#view(tabId);
  }

  /** Closes an owned tab; the active tab moves to another owned one. */
  async close(tabId: string): Promise<{ tabs: TabView[]; activeTabId: string }> {
    const id = tabId || this.#active;
    await this.#adopt(id);
    const page = this.#own(id, "tab_id");
    await page.transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
    page.dispose();
    this.#pages.delete(id);
    if (id === this.#active) {
      const next = [...this.#pages.entries()].find(([, p]) => !p.gone);
      if (next) this.#activate(next[0], next[1]);
    }
    return this.list();
  }

  /** The agent's tabs. */
  async list(): Promise<{ tabs: TabView[]; activeTabId: string }> {
    for (const p of [...this.#pages.values()]) for (const t of p.openedTargets) await this.#adopt(t).catch(() => undefined);
    const tabs: TabView[] = [];
    for (const id of this.#pages.keys()) tabs.push(await this.#view(id));
    return { tabs, activeTabId: this.#active };
  }

  #activate(id: string, page: PageSession): void {
    this.#active = id;
    if (this.#state.page !== page) this.#state.usePage(page);
  }

  async #view(id: string): Promise<TabView> {
    const page = this.#pages.get(id);
    const info = await page?.transport
      .send<{ targetInfo: TargetInfo }>("Target.getTargetInfo", { targetId: id })
      .then((r) => r.targetInfo)
      .catch(() => undefined);
    return {
      tabId: id,
      url: sanitizeUrl(info?.url ?? page?.mainFrame()?.url ?? ""),
      title: sanitizeText(info?.title ?? "", 200),
      active: id === this.#active,
    };
  }
}
