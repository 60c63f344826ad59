import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

const timezones = ["UTC", "America/New_York", "America/Los_Angeles", "Europe/Berlin", "Europe/Lisbon", "Europe/London", "Europe/Madrid", "Europe/Paris", "Asia/Tokyo", "Australia/Sydney"];
const themes = ["light", "dark", "system"];

/** The settings the server keeps (the page reads them with the lists of choices). */
export interface Settings {
  workspace_name: string;
  timezone: string;
  language: string;
  notifications: { digest: boolean; mentions: boolean; product_news: boolean };
  theme: string;
  api_keys: { name: string; created: string; revoked: boolean }[];
}

/**
 * "Acme Cloud" account settings, kept on the server: tabs, custom switches of two kinds, a
 * theme picker inside a shadow root, a rename dialog, and keys revoked after a confirm().
 */
const settings: SiteFactory = ({ dir }) => {
  const s: Settings = {
    workspace_name: "Acme Research",
    timezone: "UTC",
    language: "English",
    notifications: { digest: true, mentions: true, product_news: false },
    theme: "light",
    api_keys: [
      { name: "CI", created: "2026-01-12", revoked: false },
      { name: "Deploy bot", created: "2026-02-03", revoked: false },
      { name: "CI staging", created: "2026-03-21", revoked: false },
    ],
  };
  const view = () => ({ ...s, timezones, themes });
  return jsonApi(
    dir,
    {
      "GET /api/settings": view,
      "PATCH /api/settings/general": ({ body }) => {
        if (typeof body.timezone === "string") {
          if (!timezones.includes(body.timezone)) throw new HttpError(400, `unknown time zone ${body.timezone}`);
          s.timezone = body.timezone;
        }
        if (typeof body.language === "string") s.language = body.language;
        return view();
      },
      "PATCH /api/settings/workspace": ({ body }) => {
        const name = typeof body.name === "string" ? body.name.trim() : "";
        if (name.length < 2 || name.length > 40) throw new HttpError(400, "the name must have 2 to 40 characters");
        s.workspace_name = name;
        return view();
      },
      "PATCH /api/settings/notifications": ({ body }) => {
        for (const k of ["digest", "mentions", "product_news"] as const) if (typeof body[k] === "boolean") s.notifications[k] = body[k];
        return view();
      },
      "PATCH /api/settings/theme": ({ body }) => {
        if (typeof body.theme !== "string" || !themes.includes(body.theme)) throw new HttpError(400, "unknown theme");
        s.theme = body.theme;
        return view();
      },
      "POST /api/keys/:name/revoke": ({ params }) => {
        const key = s.api_keys.find((k) => k.name === params.name);
        if (!key) throw new HttpError(404, "no such key");
        key.revoked = true;
        return view();
      },
      "GET /api/state": () => s,
    },
    { spa: true },
  );
};

export default settings;
