import { terminalAsk } from "./prompts.js";
import type { RunDeps } from "./run-command.js";

/**
 * `baton run`'s dependencies on the real process: its streams, environment and terminal, and
 * Ctrl-C. The first Ctrl-C asks for a clean stop; a second one quits at once (exit 130).
 */
export function processRunDeps(): RunDeps {
  // A reader that goes away (`| head`) must not crash the run with EPIPE: the run goes on.
  for (const s of [process.stdout, process.stderr]) s.on("error", () => undefined);
  return {
    out: process.stdout,
    err: process.stderr,
    env: process.env,
    ask: terminalAsk(process.stdin, process.stderr),
    onInterrupt(handler) {
      let count = 0;
      const onSigint = () => {
        if (++count > 1) {
          process.stderr.write("\nbaton run: interrupted again, quitting now\n");
          process.exit(130);
        }
        handler();
      };
      process.on("SIGINT", onSigint);
      return () => void process.off("SIGINT", onSigint);
    },
  };
}
