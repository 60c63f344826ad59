/** Parsed command-line flags: `--name value`, `--name=value` and bare `--flag` (true). */
export interface Parsed {
  readonly positional: string[];
  /** Each flag's last value. */
  readonly flags: Map<string, string | true>;
  /** Every value of each flag, in order, for flags that may repeat (`--secret a=… --secret b=…`). */
  readonly all: Map<string, (string | true)[]>;
}

/** Parses argv (without the node and script entries). */
export function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  const all = new Map<string, (string | true)[]>();
  const set = (name: string, v: string | true) => {
    flags.set(name, v);
    all.set(name, [...(all.get(name) ?? []), v]);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        set(a.slice(2), next);
        i++;
      } else set(a.slice(2), true);
    }
  }
  return { positional, flags, all };
}

/** A string flag, or the fallback. */
export function flag(p: Parsed, name: string, fallback?: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === "string" ? v : fallback;
}
