import { ConnectError } from "@connectrpc/connect";

/** The ConnectError a call that must be refused fails with; throws when the call succeeds. */
export async function refusal(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("expected a refusal");
}
