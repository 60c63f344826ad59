import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ConsoleService } from "@baton/gen/baton/v1/descriptors";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { accountOf, createUser, listUsers, newSignInLink } from "../console/accounts.js";
import type { ConsoleDeps } from "../console/deps.js";
import { decideDeviceLink, exchangeDeviceCode, pollDeviceLink, showDeviceLink, startDeviceLink } from "../console/device-link.js";
import { listMemories, removeMemory, setMemoryPinned, writeMemory } from "../console/memory.js";
import { diffVersions, matchPlaybooks, rollBack, versionsOf } from "../console/playbooks.js";
import { listUserSessions, watchSession } from "../console/sessions.js";
import { createApiToken, renameApiToken, revokeApiToken } from "../console/api-tokens.js";
import { quotaMessage, setUserQuota, usageOf } from "../console/usage.js";
import { defaultBudgetOf, setUserDefaultBudget } from "../console/budgets.js";
import { consumeSignInCode, createConsoleSession, endConsoleSession, signInCodeUser } from "../store/accounts.js";
import { listTokens } from "../store/api-tokens.js";
import { consoleSecret } from "./access.js";
import type { Authenticator } from "./auth.js";
import { clearedCookie, consoleSessionMs, sessionCookie } from "./console-auth.js";
import { rpcLogger } from "./rpc-log.js";
import { requestChecker } from "./validate.js";

/**
 * The ConsoleService routes (the web console and device linking), as one module beside
 * `agentRoutes`. The edge has already checked each request's access as its proto declares it
 * (`access.ts`); here `auth` names the user of the console's cookie.
 */
export function consoleRoutes(deps: ConsoleDeps, auth: Authenticator): (router: ConnectRouter) => void {
  const user = (ctx: HandlerContext) => auth(ctx);
  const secure = deps.publicUrl?.startsWith("https:") ?? false;
  const interceptors = [rpcLogger(deps.agent.deps.logger), requestChecker()];
  return (router) =>
    router.service(
      ConsoleService,
      {
        async getSignInLink(req) {
          const link = req.code ? await signInCodeUser(deps.db, req.code) : undefined;
          if (!link) throw spentLink();
          return { account: await accountOf(deps.db, link.userId), expiresAt: timestampFromDate(link.expiresAt) };
        },
        async signIn(req, ctx) {
          // Two session cookies are refused here too (`consoleSecret`): the new one would not be the one sent.
          const previous = consoleSecret(ctx.requestHeader.get("cookie"));
          const userId = req.code ? await consumeSignInCode(deps.db, req.code) : undefined;
          if (!userId) throw spentLink();
          // Switching accounts ends the session it replaces, rather than leave it valid behind a lost cookie.
          if (previous) await endConsoleSession(deps.db, previous);
          const { secret } = await createConsoleSession(deps.db, userId, consoleSessionMs);
          ctx.responseHeader.append("set-cookie", sessionCookie(secret, consoleSessionMs, secure));
          return { account: await accountOf(deps.db, userId) };
        },
        async signOut(_req, ctx) {
          await user(ctx);
          const secret = consoleSecret(ctx.requestHeader.get("cookie"));
          if (secret) await endConsoleSession(deps.db, secret);
          ctx.responseHeader.append("set-cookie", clearedCookie(secure));
          return {};
        },
        async getAccount(_req, ctx) {
          const userId = await user(ctx);
          return { account: await accountOf(deps.db, userId), quota: quotaMessage(deps, userId), defaultBudget: await defaultBudgetOf(deps, userId) };
        },
        startDeviceLink(req, ctx) {
          return startDeviceLink(deps, deps.linkBase(), ctx.requestHeader.get("origin") ?? "", req);
        },
        pollDeviceLink(req) {
          return pollDeviceLink(deps, req.linkId);
        },
        exchangeDeviceCode(req) {
          return exchangeDeviceCode(deps, req.code, req.codeVerifier);
        },
        async getDeviceLink(req, ctx) {
          await user(ctx);
          return { link: await showDeviceLink(deps, req.linkId) };
        },
        async decideDeviceLink(req, ctx) {
          return { link: await decideDeviceLink(deps, await user(ctx), req.linkId, req.approve, req.tokenName) };
        },
        async listTokens(_req, ctx) {
          return { tokens: await listTokens(deps.db, await user(ctx)) };
        },
        async createToken(req, ctx) {
          return createApiToken(deps, await user(ctx), req.name);
        },
        async renameToken(req, ctx) {
          return { token: await renameApiToken(deps, await user(ctx), req.tokenId, req.name) };
        },
        async revokeToken(req, ctx) {
          return { token: await revokeApiToken(deps, await user(ctx), req.tokenId) };
        },
        async listSessions(req, ctx) {
          return listUserSessions(deps, await user(ctx), req);
        },
        async *watchSession(req, ctx) {
          yield* watchSession(deps, await user(ctx), req.sessionId, ctx.signal);
        },
        async listPlaybookVersions(req, ctx) {
          return { versions: await versionsOf(deps, await user(ctx), req.name) };
        },
        async diffPlaybookVersions(req, ctx) {
          return diffVersions(deps, await user(ctx), req.name, req.fromVersion, req.toVersion);
        },
        async rollBackPlaybook(req, ctx) {
          return { playbook: await rollBack(deps, await user(ctx), req.name, req.version) };
        },
        async matchPlaybooks(req, ctx) {
          return matchPlaybooks(deps, await user(ctx), req.task, req.url);
        },
        async listMemories(req, ctx) {
          return { records: await listMemories(deps, await user(ctx), req.query, req.limit || 50) };
        },
        async deleteMemory(req, ctx) {
          await removeMemory(deps, await user(ctx), req.memoryId);
          return {};
        },
        async pinMemory(req, ctx) {
          return { record: await setMemoryPinned(deps, await user(ctx), req.memoryId, req.pinned) };
        },
        async createMemory(req, ctx) {
          return { record: await writeMemory(deps, await user(ctx), req.text, req.tags) };
        },
        async getUsage(req, ctx) {
          return usageOf(deps, await user(ctx), req.days || 30);
        },
        async listUsers(_req, ctx) {
          return { users: await listUsers(deps, await user(ctx)) };
        },
        async createUser(req, ctx) {
          const { account, url } = await createUser(deps, await user(ctx), deps.linkBase(), { userId: req.userId, name: req.name, admin: req.admin });
          return { account, signInUrl: url };
        },
        async createSignInLink(req, ctx) {
          const { url, expiresAt } = await newSignInLink(deps, await user(ctx), deps.linkBase(), req.userId);
          return { signInUrl: url, expiresAt };
        },
        async setQuota(req, ctx) {
          return { quota: await setUserQuota(deps, await user(ctx), req.userId, req.quota) };
        },
        async setDefaultBudget(req, ctx) {
          return { budget: await setUserDefaultBudget(deps, await user(ctx), req.budget) };
        },
      },
      { interceptors },
    );
}

/** A sign-in link's code that no longer signs anyone in. */
function spentLink(): ConnectError {
  return new ConnectError("this sign-in link was used already or has expired: ask for a new one (`baton user link <user>`, or restart `npm start`)", Code.Unauthenticated);
}

/** Both services on one router. */
export function allRoutes(...parts: ((router: ConnectRouter) => void)[]): (router: ConnectRouter) => void {
  return (router) => {
    for (const p of parts) p(router);
  };
}
