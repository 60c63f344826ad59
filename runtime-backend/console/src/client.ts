/**
 * The console's clients of ConsoleService and AgentService, over Connect-Web on the page's own
 * origin. The session cookie rides along (same origin), and every call carries the console's
 * header, which the server requires of cookie calls (a cross-site page cannot send it).
 */
import { AgentService, ConsoleService } from "@baton/gen/baton/v1/descriptors";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";

const consoleHeader: Interceptor = (next) => (req) => {
  req.header.set("baton-console", "1");
  return next(req);
};

const transport = createConnectTransport({ baseUrl: location.origin, useBinaryFormat: true, interceptors: [consoleHeader] });

/** ConsoleService. */
export const consoleApi = createClient(ConsoleService, transport);
/** AgentService (the methods the console may call with its cookie). */
export const agentApi = createClient(AgentService, transport);

/** A call's error as one line for a person. */
export function errorText(e: unknown): string {
  return e instanceof ConnectError ? e.rawMessage : e instanceof Error ? e.message : String(e);
}

/** True when an error means the console session is gone (sign in again). */
export function signedOut(e: unknown): boolean {
  return e instanceof ConnectError && e.code === Code.Unauthenticated;
}
