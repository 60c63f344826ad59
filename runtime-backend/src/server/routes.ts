import { create } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { type StreamStepResponse } from "@baton/gen/baton/v1/agent_pb";
import { AgentService, StreamStepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import type { Agent } from "../loop/agent.js";
import { getSitePolicy, listApprovalRules, putSitePolicy, rememberApprovalRule, revokeApprovalRule } from "../loop/trust-rpc.js";
import type { Authenticator } from "./auth.js";
import { progressOf } from "../loop/step-progress.js";
import { rpcLogger } from "./rpc-log.js";
import { requestChecker } from "./validate.js";

/**
 * The AgentService routes, as one module: mount them on a Node server (connectNodeAdapter)
 * or call them in-memory in tests (createRouterTransport). Every request is checked against its
 * proto's limits (`validate.ts`), then every method authenticates first.
 */
export function agentRoutes(agent: Agent, auth: Authenticator): (router: ConnectRouter) => void {
  const user = (ctx: HandlerContext) => auth(ctx);
  // Logged first, so a refused request is logged as the client's mistake it is.
  const interceptors = [rpcLogger(agent.deps.logger), requestChecker()];
  return (router) =>
    router.service(
      AgentService,
      {
        async createSession(req, ctx) {
          return { session: await agent.createSession(await user(ctx), req) };
        },
        async step(req, ctx) {
          return agent.step(await user(ctx), req, { signal: ctx.signal });
        },
        async *streamStep(req, ctx) {
          const userId = await user(ctx);
          const queue: StreamStepResponse[] = [];
          let wake: (() => void) | undefined;
          const push = (m: StreamStepResponse) => {
            queue.push(m);
            wake?.();
          };
          let finished = false;
          let failure: unknown;
          const run = agent
            .step(userId, req.step ?? create(AgentService.method.step.input), { signal: ctx.signal, onEvent: (e) => push(progressOf(e)) })
            .then(
              (done) => push(create(StreamStepResponseSchema, { event: { case: "done", value: done } })),
              (e: unknown) => {
                failure = e;
              },
            )
            .finally(() => {
              finished = true;
              wake?.();
            });
          for (;;) {
            while (queue.length > 0) yield queue.shift() as StreamStepResponse;
            if (finished) break;
            await new Promise<void>((r) => {
              wake = r;
            });
            wake = undefined;
          }
          await run;
          while (queue.length > 0) yield queue.shift() as StreamStepResponse;
          if (failure) throw failure;
        },
        async stop(req, ctx) {
          return { session: await agent.stop(await user(ctx), req.sessionId, req.reason) };
        },
        async getSession(req, ctx) {
          return agent.getSession(await user(ctx), req.sessionId);
        },
        async getScreenshot(req, ctx) {
          return agent.getScreenshot(await user(ctx), req.sessionId, req.screenshotId);
        },
        async reportVerdict(req, ctx) {
          return { session: await agent.reportVerdict(await user(ctx), req.sessionId, req.verdict) };
        },
        async reportLog(req, ctx) {
          return { stored: await agent.reportLog(await user(ctx), req.sessionId, req.entries) };
        },
        async createPlaybook(req, ctx) {
          return { playbook: await agent.savePlaybook(await user(ctx), req.playbook, true) };
        },
        async updatePlaybook(req, ctx) {
          return { playbook: await agent.savePlaybook(await user(ctx), req.playbook, false) };
        },
        async getPlaybook(req, ctx) {
          return { playbook: await agent.getPlaybook(await user(ctx), req.name, req.version) };
        },
        async listPlaybooks(_req, ctx) {
          return { playbooks: await agent.listPlaybooks(await user(ctx)) };
        },
        async decideApproval(req, ctx) {
          return { session: await agent.decideApproval(await user(ctx), req.sessionId, req.toolcallId, req.approval) };
        },
        async listApprovalRules(_req, ctx) {
          return { rules: await listApprovalRules(agent.deps, await user(ctx)) };
        },
        async revokeApprovalRule(req, ctx) {
          await revokeApprovalRule(agent.deps, await user(ctx), req.id);
          return {};
        },
        async rememberApprovalRule(req, ctx) {
          return { rule: await rememberApprovalRule(agent.deps, await user(ctx), req) };
        },
        async getSitePolicy(_req, ctx) {
          return getSitePolicy(agent.deps, agent.deps.store.db, await user(ctx));
        },
        async setSitePolicy(req, ctx) {
          return { policies: await putSitePolicy(agent.deps, agent.deps.store.db, await user(ctx), req.policy, req.team) };
        },
      },
      { interceptors },
    );
}
