/**
 * A commit lost a race: the session moved past the version it was computed from, or another
 * agent instance holds a live lease on it. Nothing of the commit was written. The loop answers
 * it as `Aborted` (a retry then reads the session again, or gets the stored answer).
 */
export class SessionConflict extends Error {
  override readonly name = "SessionConflict";

  constructor(readonly sessionId: string) {
    super(`session ${sessionId} changed concurrently (another step committed first or holds it)`);
  }
}
