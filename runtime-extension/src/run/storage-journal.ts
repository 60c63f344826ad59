import { ToolcallResultSchema } from "@baton/gen/baton/v1/descriptors";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { base64Decode, base64Encode } from "@bufbuild/protobuf/wire";
import type { CallJournal, JournalEntry } from "@baton/sdk/client";

type Stored = { readonly state: "started" } | { readonly state: "done"; readonly result: string };

const prefix = "journal:";
const keyOf = (sessionId: string, toolcallId: string) => `${prefix}${sessionId}:${toolcallId}`;

/**
 * A `CallJournal` on `chrome.storage.local`, so a panel that was closed mid-run (or a browser
 * that restarted) resumes the session without running a call twice: each call that may change
 * something is recorded as started before it runs and with its result after. One key per call
 * (a write never rewrites the others); a result is kept as its protobuf bytes in base64.
 * `chrome.storage` resolves a write once it is committed, which is what `started` needs.
 */
export function storageJournal(area: chrome.storage.StorageArea = chrome.storage.local): CallJournal {
  return {
    async get(sessionId, toolcallId): Promise<JournalEntry | undefined> {
      const k = keyOf(sessionId, toolcallId);
      const got = (await area.get(k))[k] as Stored | undefined;
      if (!got) return undefined;
      return got.state === "started" ? got : { state: "done", result: fromBinary(ToolcallResultSchema, base64Decode(got.result)) };
    },
    async started(sessionId, toolcallId) {
      await area.set({ [keyOf(sessionId, toolcallId)]: { state: "started" } satisfies Stored });
    },
    async done(sessionId, result) {
      const stored: Stored = { state: "done", result: base64Encode(toBinary(ToolcallResultSchema, result)) };
      await area.set({ [keyOf(sessionId, result.toolcallId)]: stored });
    },
    async end(sessionId) {
      const mine = `${prefix}${sessionId}:`;
      const keys = Object.keys(await area.get(null)).filter((k) => k.startsWith(mine));
      if (keys.length > 0) await area.remove(keys);
    },
  };
}
