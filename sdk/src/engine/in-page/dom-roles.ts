/** The role of a live element, as the DOM agent reads it (the CDP engine has Chromium's). */
import { html, isTag } from "./elements.js";

const inputRoles: Record<string, string> = {
  checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox", submit: "button", button: "button",
  reset: "button", image: "button", file: "button", color: "color", date: "date", time: "time", "datetime-local": "datetime", month: "datetime", week: "datetime",
};
/** The host of a contenteditable region (not a paragraph inside one). */
export const isEditHost = (el: Element): boolean => !!html(el)?.isContentEditable && !(el.parentElement?.isContentEditable);
/** The element's role: its explicit ARIA role, else the one its tag and type imply ("" for none). */
export const roleOf = (el: Element): string => {
  const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0] ?? "";
  if (explicit && explicit !== "presentation" && explicit !== "none" && explicit !== "generic") return explicit;
  const tag = el.tagName;
  if (tag === "A" || tag === "AREA") return el.hasAttribute("href") ? "link" : "";
  if (tag === "BUTTON" || tag === "SUMMARY") return "button";
  if (tag === "INPUT") {
    const t = (el.getAttribute("type") || "text").toLowerCase();
    return t === "hidden" ? "" : (inputRoles[t] ?? "textbox");
  }
  if (tag === "TEXTAREA") return "textbox";
  if (isTag(el, "select")) return el.multiple || el.size > 1 ? "listbox" : "combobox";
  if (tag === "OPTION") return "option";
  if (/^H[1-6]$/.test(tag)) return "heading";
  if (tag === "IMG") return el.getAttribute("alt") ? "img" : "";
  if (isTag(el, "dialog")) return el.open ? "dialog" : "";
  if (tag === "LI") return "listitem";
  if (isEditHost(el)) return "textbox";
  return "";
};

/** A heading's level as ARIA reads it: `aria-level` when it is 1–6, else its tag's (`h3` → 3), else 2. */
export const headingLevel = (el: Element): number => {
  const aria = Number(el.getAttribute("aria-level"));
  if (Number.isInteger(aria) && aria >= 1 && aria <= 6) return aria;
  const tag = /^H([1-6])$/.exec(el.tagName);
  return tag ? Number(tag[1]) : 2;
};
