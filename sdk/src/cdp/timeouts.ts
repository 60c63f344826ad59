/** Raised when a capped wait runs out; carries what was being waited for. */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";

  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not finish within ${ms} ms`);
  }
}

/** Races a promise against a cap, so no CDP call or page wait can hang the engine. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms`; only for polling intervals and quiet windows, never as a blind settle. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
