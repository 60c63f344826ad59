/** What a command test hands `baton eval` (or any command with the same outside world): it records what is written. */
export interface RecordingDeps {
  readonly out: { write(t: string): void };
  readonly err: { write(t: string): void };
  readonly env: Record<string, string>;
  onInterrupt(): () => void;
  /** Everything written to stdout so far. */
  output(): string;
  /** Everything written to stderr so far. */
  errors(): string;
}

/** Deps for a command under test: stdout and stderr recorded, `env` as given, Ctrl-C never pressed. */
export function recordingDeps(env: Record<string, string> = {}): RecordingDeps {
  let out = "";
  let err = "";
  return {
    out: { write: (t: string) => void (out += t) },
    err: { write: (t: string) => void (err += t) },
    env,
    onInterrupt: () => () => undefined,
    output: () => out,
    errors: () => err,
  };
}
