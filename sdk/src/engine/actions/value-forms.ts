/**
 * The forms people and models write dates, times, weeks, months, colours and numbers in, read
 * into the value an `<input>` of that type holds ("09/13/2011" → "2011-09-13", "1:51 PM" →
 * "13:51"). Pure functions: `set_value` and `type_text` use them before touching the page.
 */

/** The input types whose value `canonicalValue` reads. */
export type ValueType = "date" | "time" | "datetime-local" | "month" | "week" | "color" | "range" | "number";

const months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** A month's number from its English name or abbreviation ("Sep", "september"), else undefined. */
function monthOf(word: string): number | undefined {
  const i = months.indexOf(word.slice(0, 3).toLowerCase());
  return i >= 0 && (word.length <= 3 || months[i] === word.slice(0, 3).toLowerCase()) ? i + 1 : undefined;
}

/** A two-digit year as a four-digit one (the nearest century: 49 → 2049, 50 → 1950). */
function fullYear(y: number, digits: number): number {
  if (digits > 2) return y;
  return y < 50 ? 2000 + y : 1900 + y;
}

function validDate(y: number, m: number, d: number): string | undefined {
  if (!(y >= 1 && y <= 275760 && m >= 1 && m <= 12 && d >= 1)) return undefined;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days ? `${pad(y, 4)}-${pad(m)}-${pad(d)}` : undefined;
}

/**
 * A date as `yyyy-mm-dd`: ISO ("2011-09-13", "2011/09/13"), US ("09/13/2011", "9/13/11"; read
 * as day/month when the first number cannot be a month), dotted European ("13.09.2011"), or
 * with a month name ("Sep 13, 2011", "13 September 2011").
 */
export function parseDate(raw: string): string | undefined {
  const s = raw.trim().replace(/\s+/g, " ");
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) return validDate(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    const y = fullYear(Number(m[3]), m[3]!.length);
    return a > 12 ? validDate(y, b, a) : validDate(y, a, b);
  }
  m = /^(\d{1,2})[.-](\d{1,2})[.-](\d{2}|\d{4})$/.exec(s);
  if (m) return validDate(fullYear(Number(m[3]), m[3]!.length), Number(m[2]), Number(m[1]));
  m = /^(?:[a-z]+,? )?([a-z]+)\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/i.exec(s);
  if (m) {
    const month = monthOf(m[1]!);
    return month ? validDate(Number(m[3]), month, Number(m[2])) : undefined;
  }
  m = /^(?:[a-z]+,? )?(\d{1,2})(?:st|nd|rd|th)? ([a-z]+)\.?,? (\d{4})$/i.exec(s);
  if (m) {
    const month = monthOf(m[2]!);
    return month ? validDate(Number(m[3]), month, Number(m[1])) : undefined;
  }
  return undefined;
}

/** A time as `HH:MM` (or `HH:MM:SS`): 24-hour ("13:51", "09:05:30") or 12-hour ("1:51 PM", "1 pm", "12:30am"). */
export function parseTime(raw: string): string | undefined {
  const s = raw.trim().toLowerCase().replace(/\s+/g, " ").replace(/\./g, "");
  const m = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2})(?:\.\d+)?)? ?(am|pm|a|p)?$/.exec(s);
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  const sec = m[3] === undefined ? undefined : Number(m[3]);
  const half = m[4];
  if (m[2] === undefined && !half) return undefined;
  if (half) {
    if (h < 1 || h > 12) return undefined;
    if (half.startsWith("a")) h = h === 12 ? 0 : h;
    else h = h === 12 ? 12 : h + 12;
  }
  if (h > 23 || min > 59 || (sec !== undefined && sec > 59)) return undefined;
  return `${pad(h)}:${pad(min)}${sec === undefined ? "" : `:${pad(sec)}`}`;
}

/** A date and time as `yyyy-mm-ddTHH:MM`: the two parts joined by "T", a space, "at" or a comma. */
export function parseDateTime(raw: string): string | undefined {
  const s = raw.trim().replace(/\s+/g, " ");
  const iso = /^(\d{4}-\d{1,2}-\d{1,2})[T ](.+)$/.exec(s);
  if (iso) {
    const d = parseDate(iso[1]!);
    const t = parseTime(iso[2]!);
    return d && t ? `${d}T${t}` : undefined;
  }
  // Try every split point between a date and a time ("Sep 13, 2011, 1:51 PM", "09/13/2011 13:51").
  const words = s.replace(/ at /i, " ").split(" ");
  for (let i = words.length - 1; i >= 1; i--) {
    const d = parseDate(words.slice(0, i).join(" ").replace(/,$/, ""));
    const t = parseTime(words.slice(i).join(" "));
    if (d && t) return `${d}T${t}`;
  }
  return undefined;
}

/** A month as `yyyy-mm`: "2011-09", "09/2011", "Sep 2011", "September, 2011". */
export function parseMonth(raw: string): string | undefined {
  const s = raw.trim().replace(/\s+/g, " ");
  let m = /^(\d{4})[-/](\d{1,2})$/.exec(s);
  if (m) return Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${m[1]}-${pad(Number(m[2]))}` : undefined;
  m = /^(\d{1,2})[/-](\d{4})$/.exec(s);
  if (m) return Number(m[1]) >= 1 && Number(m[1]) <= 12 ? `${m[2]}-${pad(Number(m[1]))}` : undefined;
  m = /^([a-z]+)\.?,? (\d{4})$/i.exec(s);
  if (m) {
    const month = monthOf(m[1]!);
    return month ? `${m[2]}-${pad(month)}` : undefined;
  }
  return undefined;
}

/** The ISO week (`yyyy-Www`) a `yyyy-mm-dd` date falls in. */
function isoWeekOf(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((t.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${pad(t.getUTCFullYear(), 4)}-W${pad(week)}`;
}

/** A week as `yyyy-Www`: "2011-W37", "W37 2011", "week 37, 2011", or any date in that week. */
export function parseWeek(raw: string): string | undefined {
  const s = raw.trim().replace(/\s+/g, " ");
  let m = /^(\d{4})-?W(\d{1,2})$/i.exec(s);
  if (!m) {
    const alt = /^(?:W|week )(\d{1,2}),? (\d{4})$/i.exec(s);
    if (alt) m = ["", alt[2]!, alt[1]!] as unknown as RegExpExecArray;
  }
  if (m) {
    const week = Number(m[2]);
    return week >= 1 && week <= 53 ? `${m[1]}-W${pad(week)}` : undefined;
  }
  const date = parseDate(s);
  return date ? isoWeekOf(date) : undefined;
}

/** A colour as `#rrggbb` from hex ("#abc", "#AABBCC", "aabbcc") or `rgb()`; other CSS colours are left to the page. */
export function parseColor(raw: string): string | undefined {
  const s = raw.trim().toLowerCase();
  let m = /^#?([0-9a-f]{3})$/.exec(s);
  if (m) return `#${[...m[1]!].map((c) => c + c).join("")}`;
  m = /^#?([0-9a-f]{6})$/.exec(s);
  if (m) return `#${m[1]}`;
  m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)$/.exec(s);
  if (m) {
    const parts = [m[1], m[2], m[3]].map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return `#${parts.map((p) => p.toString(16).padStart(2, "0")).join("")}`;
  }
  return undefined;
}

/** A number from "1,500", "1 500", "-3.5", "40%" (kept as a percentage: `{ percent: 40 }`). */
export function parseNumber(raw: string): { value: number } | { percent: number } | undefined {
  const s = raw.trim().replace(/[\s,_]/g, "");
  const pct = /^(-?\d+(?:\.\d+)?)%$/.exec(s);
  if (pct) return { percent: Number(pct[1]) };
  return /^-?(\d+(\.\d*)?|\.\d+)(e-?\d+)?$/i.test(s) ? { value: Number(s) } : undefined;
}

/** The accepted forms of each type, for error messages. */
export const valueExamples: Readonly<Record<ValueType, string>> = {
  date: '"2011-09-13", "09/13/2011", "13.09.2011" or "Sep 13, 2011"',
  time: '"13:51", "13:51:30" or "1:51 PM"',
  "datetime-local": '"2011-09-13T13:51" or "09/13/2011 1:51 PM"',
  month: '"2011-09", "09/2011" or "Sep 2011"',
  week: '"2011-W37", "week 37, 2011" or a date in that week',
  color: '"#ff8800", "#f80", "rgb(255, 136, 0)" or a CSS colour name',
  range: 'a number such as "40", or a percentage of the range such as "25%"',
  number: 'a number such as "1500" or "-3.5"',
};

/** The value an input of `type` holds for `raw`, or undefined when `raw` is not a form of it (colours by name are resolved in the page). */
export function canonicalValue(type: ValueType, raw: string): string | undefined {
  switch (type) {
    case "date":
      return parseDate(raw);
    case "time":
      return parseTime(raw);
    case "datetime-local":
      return parseDateTime(raw);
    case "month":
      return parseMonth(raw);
    case "week":
      return parseWeek(raw);
    case "color":
      return parseColor(raw);
    case "range":
    case "number": {
      const n = parseNumber(raw);
      return n && "value" in n ? String(n.value) : undefined;
    }
  }
}
