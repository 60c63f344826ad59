import type { Engine } from "../engine/engine.js";
import type { PageProbe } from "./script-file.js";

interface EvaluateResult {
  readonly result?: { readonly value?: unknown };
  readonly exceptionDetails?: { readonly text?: string; readonly exception?: { readonly description?: string } };
}

/**
 * A {@link PageProbe} over the engine's current page (the active tab): evaluates in the main
 * frame with `Runtime.evaluate`, awaiting promises, and turns page exceptions into errors.
 */
export function engineProbe(engine: Engine): PageProbe {
  const evaluate = async (expression: string): Promise<unknown> => {
    const r = await engine.page.send<EvaluateResult>("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    if (r.exceptionDetails) {
      throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text ?? "exception in the page");
    }
    return r.result?.value;
  };
  return {
    evaluate,
    url: async () => String(await evaluate("location.href")),
    text: async () => String(await evaluate("document.body ? document.body.innerText : ''")),
  };
}
