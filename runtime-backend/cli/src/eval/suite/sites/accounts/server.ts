import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

/** What the server keeps for the account: profile fields, preferences, mail filters. */
export interface Account {
  profile: { full_name: string; email: string; phone: string };
  preferences: { keyboard_shortcuts: boolean; email_digests: boolean; language: string };
  filters: { id: number; matches: string; action: string }[];
}

/**
 * "Keystone" account settings, built the way such apps are: each profile field's "Edit"
 * button is hidden until its row is hovered, preferences are `<div>` switches after their
 * label text, and mail filters are rows with the same "edit" and "delete" links in each.
 */
const accounts: SiteFactory = ({ dir }) => {
  const a: Account = {
    profile: { full_name: "Ada Lovelace", email: "ada@example.com", phone: "+44 20 7946 0000" },
    preferences: { keyboard_shortcuts: true, email_digests: true, language: "English" },
    filters: [
      { id: 1, matches: "from:(deals@shop.example)", action: "Skip Inbox, Apply label: Promotions" },
      { id: 2, matches: "from:(newsletter@weekly.example)", action: "Mark as read" },
      { id: 3, matches: "subject:(invoice)", action: "Apply label: Receipts" },
      { id: 4, matches: "from:(alerts@bank.example)", action: "Star it" },
    ],
  };
  return jsonApi(
    dir,
    {
      "GET /api/state": () => a,
      "PATCH /api/profile": ({ body }) => {
        for (const k of ["full_name", "email", "phone"] as const) {
          if (typeof body[k] !== "string") continue;
          const v = body[k].trim();
          if (v.length < 2 || v.length > 60) throw new HttpError(400, `the ${k.replace("_", " ")} must have 2 to 60 characters`);
          a.profile[k] = v;
        }
        return a;
      },
      "PATCH /api/preferences": ({ body }) => {
        for (const k of ["keyboard_shortcuts", "email_digests"] as const) if (typeof body[k] === "boolean") a.preferences[k] = body[k];
        if (typeof body.language === "string") a.preferences.language = body.language;
        return a;
      },
      "DELETE /api/filters/:id": ({ params }) => {
        const at = a.filters.findIndex((f) => String(f.id) === params.id);
        if (at < 0) throw new HttpError(404, "no such filter");
        a.filters.splice(at, 1);
        return a;
      },
    },
    { spa: true },
  );
};
export default accounts;
