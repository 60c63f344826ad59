/**
 * Where Chrome's built-in model stands in this browser, for the panel: the Prompt API's
 * availability, polled while Chrome downloads the model, and the download itself, which
 * `create()` starts only from a user gesture (the panel's button).
 */
import { type Availability, browserLanguageModel, textInEnglish } from "@baton/backend/built-in-model";
import { useEffect, useRef, useState } from "preact/hooks";

/** The model's state as the panel shows it. */
export type BuiltInStatus =
  | { readonly state: "checking" }
  /** This browser has no Prompt API (`LanguageModel`). */
  | { readonly state: "missing" }
  /** `progress` (0 to 1) while a download this panel started runs; `error` when the last attempt failed. */
  | { readonly state: Availability; readonly progress?: number; readonly error?: string };

/** How often the panel asks again while Chrome downloads the model on its own. */
const pollMs = 2_000;

function reasonOf(e: unknown): string {
  return e instanceof Error || e instanceof DOMException ? `${e.name}: ${e.message}` : String(e);
}

/** The built-in model's status, and `download()` for the button that starts the download. */
export function useBuiltInModel(): { readonly status: BuiltInStatus; download(): void } {
  const [status, setStatus] = useState<BuiltInStatus>({ state: "checking" });
  /** A download this panel started reports its own progress; the poll stays out of its way. */
  const ours = useRef(false);
  useEffect(() => {
    const lm = browserLanguageModel();
    if (!lm) {
      setStatus({ state: "missing" });
      return;
    }
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      const state = await lm.availability(textInEnglish).catch((): Availability => "unavailable");
      if (!live || ours.current) return;
      setStatus({ state });
      // Chrome goes on downloading without this panel: look again until the model is there.
      if (state === "downloading") timer = setTimeout(check, pollMs);
    };
    void check();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);

  const download = () => {
    const lm = browserLanguageModel();
    if (!lm) return;
    ours.current = true;
    setStatus({ state: "downloading", progress: 0 });
    // Called straight from the click: create() needs the gesture, so nothing is awaited first.
    lm.create({
      ...textInEnglish,
      monitor: (m) => m.addEventListener("downloadprogress", (e) => setStatus({ state: "downloading", progress: (e as ProgressEvent).loaded })),
    })
      .then((session) => {
        session.destroy();
        setStatus({ state: "available" });
      })
      .catch(async (e: unknown) => setStatus({ state: await lm.availability(textInEnglish).catch((): Availability => "unavailable"), error: reasonOf(e) }))
      .finally(() => (ours.current = false));
  };

  return { status, download };
}
