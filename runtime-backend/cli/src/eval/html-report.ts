import type { ReportRow } from "./report.js";
import { count, percent, seconds, sortedRows, totalsOf } from "./summary.js";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/** Only our own JPEG data URLs go into an img src; anything else is left out. */
function image(src: string | undefined, alt: string): string {
  return src && /^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/.test(src) ? `<img src="${src}" alt="${esc(alt)}" loading="lazy">` : `<div class="noshot">no screenshot</div>`;
}

/** The first few errors of a run, each on one line. */
function errorList(errors: readonly string[]): string {
  if (!errors.length) return "";
  const shown = errors.slice(0, 3).map((e) => esc(e.length > 160 ? `${e.slice(0, 159)}…` : e));
  return `<div class="errs">${shown.join("<br>")}${errors.length > 3 ? `<br>… and ${errors.length - 3} more` : ""}</div>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1b1f24;background:#f6f7f9}
h1{font-size:20px;margin:0 0 4px}
.meta{color:#57606a;margin-bottom:16px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin-bottom:18px}
.card{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:10px 14px;min-width:120px}
.card b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #d8dee4}
th,td{padding:8px 10px;border-bottom:1px solid #eaeef2;text-align:left;vertical-align:top}
th{background:#f0f2f5;font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.03em;color:#57606a}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.v{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px}
.pass{background:#dafbe1;color:#116329}.fail{background:#ffebe9;color:#a40e26}.error{background:#fff8c5;color:#7d4e00}
.why{color:#a40e26;max-width:380px}
.errs{color:#a40e26;font-size:12px;margin-top:6px}
.task{font-weight:600}.goal{color:#57606a;font-size:12px;max-width:300px}
code{font-size:12px}
.why,.errs,.goal,code{overflow-wrap:anywhere}
td img{width:min(320px,24vw);border:1px solid #d8dee4;border-radius:4px;display:block}
details[open] summary::before{content:"";position:fixed;inset:0;background:rgba(27,31,36,.6);z-index:1}
details[open] img{position:fixed;z-index:2;inset:0;margin:auto;width:auto;max-width:calc(100vw - 48px);max-height:calc(100vh - 48px);box-shadow:0 8px 32px rgba(0,0,0,.4);cursor:zoom-out}
summary{list-style:none}summary::-webkit-details-marker{display:none}
.noshot{width:min(320px,24vw);height:60px;color:#8c959f;display:flex;align-items:center;justify-content:center;border:1px dashed #d8dee4}
summary{cursor:zoom-in}
`;

/**
 * A self-contained HTML page for a report: the totals, then one row per run with its verdict,
 * why it failed, its figures, the tools it called and its final screenshot (embedded, so the
 * file can be mailed or attached to a CI run as it is).
 */
export function htmlReport(rows: readonly ReportRow[], o: { title: string; goals?: ReadonlyMap<string, string> }): string {
  const t = totalsOf(rows);
  const models = [...new Set(rows.map((r) => (r.model.startsWith("script:") ? "scripts" : r.model)))].join(", ");
  const vias = [...new Set(rows.map((r) => r.via))].join(", ");
  const cards = [
    ["passed", `${t.passed}/${t.runs} (${percent(t.passRate)})`],
    ["wall mean / median", `${seconds(t.meanWallMs)} / ${seconds(t.medianWallMs)}`],
    ["steps mean", t.meanSteps.toFixed(1)],
    ["tokens in / out", `${count(t.tokensIn)} / ${count(t.tokensOut)}`],
    ["cost", `$${t.costUsd.toFixed(4)}`],
    ["model / tools", `${seconds(t.modelMs)} / ${seconds(t.toolMs)}`],
  ]
    .map(([k, v]) => `<div class="card">${esc(k as string)}<b>${esc(v as string)}</b></div>`)
    .join("");
  const body = sortedRows(rows)
    .map((r) => {
      const goal = o.goals?.get(r.task);
      const why = r.verdict === "pass" ? "" : `<div class="why"><b>${esc(r.failed_check ?? "")}</b>: ${esc(r.reason ?? "")}</div>`;
      // Clicking the thumbnail opens the details, which shows it at full size over the page
      // (fixed, so the table keeps its width); a click on it closes it again.
      const shot = image(r.screenshot, `final page of ${r.task}`);
      return `<tr>
<td><span class="v ${r.verdict}">${r.verdict}</span></td>
<td><div class="task">${esc(r.task)}${r.attempt > 1 ? ` #${r.attempt}` : ""}</div>${goal ? `<div class="goal">${esc(goal)}</div>` : ""}${why}${r.answer ? `<div>answer: ${esc(r.answer.slice(0, 300))}</div>` : ""}</td>
<td class="num">${seconds(r.wall_ms)}<br><small>model ${seconds(r.model_ms)}<br>tools ${seconds(r.tool_ms)}</small></td>
<td class="num">${r.steps}</td>
<td class="num">${count(r.tokens_in)}<br>${count(r.tokens_out)}</td>
<td><code>${esc(r.tool_calls.join(" → "))}</code>${errorList(r.errors)}</td>
<td><details><summary>${shot}</summary></details></td>
</tr>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(o.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${esc(o.title)}</h1>
<div class="meta">${rows.length} run(s) · via ${esc(vias)} · model ${esc(models)} · ${esc(rows[0]?.started_at.slice(0, 19).replace("T", " ") ?? "")} UTC</div>
<div class="cards">${cards}</div>
<table>
<thead><tr><th>verdict</th><th>task</th><th>wall</th><th>steps</th><th>tokens in/out</th><th>tool calls</th><th>final page</th></tr></thead>
<tbody>
${body}
</tbody>
</table>
</body></html>
`;
}
