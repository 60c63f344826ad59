/** The console's one way of loading a list for a page. */
import { useEffect, useState } from "preact/hooks";
import { errorText } from "./client.js";

/** What {@link useList} gives a page. */
export interface ListState<T> {
  /** The list; undefined until the first load answers. */
  readonly items: T[] | undefined;
  /** Why the last load (or an action the page reported with `setError`) failed. */
  readonly error: string | undefined;
  readonly setError: (e: string | undefined) => void;
  /** Loads the list again (after the page changed something). */
  readonly reload: () => Promise<void>;
}

/** Loads a list with `fetch` when the page mounts, and again on `reload()`; a failure becomes `error`. */
export function useList<T>(fetch: () => Promise<T[]>): ListState<T> {
  const [items, setItems] = useState<T[]>();
  const [error, setError] = useState<string>();
  const reload = () => fetch().then(setItems, (e: unknown) => setError(errorText(e)));
  useEffect(() => void reload(), []);
  return { items, error, setError, reload };
}
