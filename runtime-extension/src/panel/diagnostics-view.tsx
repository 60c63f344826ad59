import { useEffect, useState } from "preact/hooks";
import { type DiagnosticsData, rows } from "../run/diagnostics.js";

const key = "diagnostics";

/** Per-provider, per-phase counts and success-only latencies, when turned on in Settings. */
export function DiagnosticsView() {
  const [data, setData] = useState<DiagnosticsData>({});
  useEffect(() => {
    const read = async () => setData(((await chrome.storage.local.get(key))[key] as DiagnosticsData | undefined) ?? {});
    void read();
    const onChanged = () => void read();
    chrome.storage.onChanged.addListener(onChanged);
    return () => chrome.storage.onChanged.removeListener(onChanged);
  }, []);
  const table = rows(data);
  return (
    <section class="diag">
      <p class="help">Latency counts successful events only; failures are counted, not averaged. Collected in this browser while diagnostics are on.</p>
      {table.length === 0 ? (
        <p class="empty">Nothing collected yet. Run a task.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Provider · phase</th>
              <th scope="col">OK / all</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {table.map((r) => (
              <tr key={`${r.provider}/${r.phase}`}>
                <td>
                  <span class="prov">{r.provider}</span> {r.phase}
                </td>
                <td>
                  {r.ok} / {r.count}
                </td>
                <td>{r.p50 !== undefined ? `${r.p50} ms` : "–"}</td>
                <td>{r.p95 !== undefined ? `${r.p95} ms` : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" class="btn ghost" onClick={() => void chrome.storage.local.remove(key)}>
        Clear
      </button>
    </section>
  );
}
