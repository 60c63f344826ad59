import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import type { RunBackend } from "../run/run-backend.js";

/** A backend that the harness can restart while runs talk to it. */
export interface RestartableBackend extends RunBackend {
  /**
   * Stops the backend (its connections cut, as when its process ends) and starts it again on the
   * same store; connections made meanwhile wait for the new one. Rejects when it cannot start.
   */
  restart(): Promise<void>;
}

/**
 * Puts the backend `start` opens (told the relay's `host:port`, a name it must answer) behind a loopback TCP relay of its own, the way connected
 * clients reach a backend behind a load balancer: the relay's address and the first token stay
 * the same across restarts (the token is in the store), so a panel signed in to it and a client
 * made for it carry on. A restart cuts every relayed connection, so requests under way fail as
 * they would against a process that ended, and the clients' own retries reach the new backend.
 */
export async function restartableBackend(start: (relay: string) => Promise<RunBackend>): Promise<RestartableBackend> {
  let ready: Promise<RunBackend> = new Promise(() => undefined);
  const relayed = new Set<Socket>();
  const keep = (s: Socket) => {
    relayed.add(s);
    s.once("close", () => relayed.delete(s));
  };
  const relay = createServer((client) => {
    keep(client);
    client.on("error", () => client.destroy());
    ready.then(
      (b) => {
        if (client.destroyed) return;
        const url = new URL(b.baseUrl);
        const up = connect(Number(url.port), url.hostname);
        keep(up);
        up.on("error", () => client.destroy());
        client.once("close", () => up.destroy());
        up.once("close", () => client.destroy());
        client.pipe(up).pipe(client);
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    relay.once("error", reject);
    relay.listen(0, "127.0.0.1", resolve);
  });
  const authority = `127.0.0.1:${(relay.address() as AddressInfo).port}`;
  let current: RunBackend;
  try {
    current = await start(authority);
  } catch (e) {
    relay.close();
    throw e;
  }
  ready = Promise.resolve(current);
  const { token, where } = current;
  return {
    baseUrl: `http://${authority}`,
    token,
    where,
    async restart() {
      let started!: (b: RunBackend) => void;
      let failed!: (e: unknown) => void;
      ready = new Promise<RunBackend>((resolve, reject) => {
        started = resolve;
        failed = reject;
      });
      ready.catch(() => undefined);
      for (const s of relayed) s.destroy();
      try {
        await current.close();
        current = await start(authority);
        started(current);
      } catch (e) {
        failed(e);
        throw e;
      }
    },
    async close() {
      relay.close();
      for (const s of relayed) s.destroy();
      await current.close();
    },
  };
}
