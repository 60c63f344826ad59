/** Parsed command-line flags: `--name value`, `--name=value` and bare `--flag` (true). */
export interface Parsed {
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

/** Parses argv (without the node and script entries). */
export function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("--")) {
        flags.set(a.slice(2), next);
        i++;
      } else flags.set(a.slice(2), true);
    }
  }
  return { positional, flags };
}

/** A string flag, or the fallback. */
export function flag(p: Parsed, name: string, fallback?: string): string | undefined {
  const v = p.flags.get(name);
  return typeof v === "string" ? v : fallback;
}
