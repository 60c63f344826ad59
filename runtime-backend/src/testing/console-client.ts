import { AgentService, ConsoleService } from "@baton/gen/baton/v1/descriptors";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";

/** A console client outside a browser: it keeps the session cookie SignIn sets, as a browser would. */
export interface ConsoleClient {
  readonly console: Client<typeof ConsoleService>;
  readonly agent: Client<typeof AgentService>;
  /** The cookie it holds ("" before signing in). */
  cookie: string;
  /** Signs in with a sign-in link's code (or the whole link) and keeps the cookie. */
  signIn(codeOrUrl: string): Promise<void>;
}

/** Extra headers each call sends (a browser's Origin, Sec-Fetch-Site), or none of the console's own. */
export interface ConsoleClientOptions {
  readonly headers?: Record<string, string>;
  /** Leave out the console's `baton-console: 1` header. */
  readonly withoutConsoleHeader?: boolean;
}

/** A client of ConsoleService (and AgentService) speaking Connect to `baseUrl` with the console's cookie. */
export function consoleClient(baseUrl: string, o: ConsoleClientOptions = {}): ConsoleClient {
  const self: ConsoleClient = {
    cookie: "",
    console: undefined as never,
    agent: undefined as never,
    async signIn(codeOrUrl) {
      const code = codeOrUrl.includes("#") ? (codeOrUrl.split("#")[1] ?? "") : codeOrUrl;
      await self.console.signIn(
        { code },
        {
          onHeader(h) {
            const set = h.get("set-cookie") ?? "";
            self.cookie = set.split(";")[0] ?? "";
          },
        },
      );
    },
  };
  const headers: Interceptor = (next) => (req) => {
    if (!o.withoutConsoleHeader) req.header.set("baton-console", "1");
    for (const [k, v] of Object.entries(o.headers ?? {})) req.header.set(k, v);
    if (self.cookie) req.header.set("cookie", self.cookie);
    return next(req);
  };
  const transport = createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: true, interceptors: [headers] });
  Object.assign(self, { console: createClient(ConsoleService, transport), agent: createClient(AgentService, transport) });
  return self;
}
