import { terminalText } from "./terminal-text.js";

/** A writable terminal-ish stream: what the progress view writes to. */
export interface OutStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * One status line with a spinner under the printed log, on a TTY. Printing a log line clears
 * the status, writes the line and redraws, so the log scrolls while the status stays last.
 * The spinner's own control sequences are the only ones it writes: lines and status text go
 * through `terminalText`.
 */
export class Spinner {
  #status = "";
  #frame = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #drawn = false;

  constructor(private readonly out: OutStream) {}

  /** Shows (or replaces) the status line and starts spinning. */
  status(text: string): void {
    this.#status = terminalText(text);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#draw(), 80);
      // A spinner must never keep the process alive on its own.
      this.#timer.unref?.();
    }
    this.#draw();
  }

  /** Prints a permanent line above the status. */
  log(line: string): void {
    this.#clear();
    this.out.write(`${terminalText(line)}\n`);
    if (this.#timer) this.#draw();
  }

  /** Removes the status line and stops spinning (before prompts and at the end). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #clear(): void {
    if (this.#drawn) this.out.write("\r\x1b[2K");
    this.#drawn = false;
  }

  #draw(): void {
    if (!this.#status) return;
    this.#frame = (this.#frame + 1) % FRAMES.length;
    this.out.write(`\r\x1b[2K${FRAMES[this.#frame]} ${this.#status}`);
    this.#drawn = true;
  }
}
