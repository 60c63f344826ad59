import { HttpError, jsonApi } from "../../../site-kit.js";
import type { SiteFactory } from "../../../site-server.js";

const types = ["Street party", "Market", "Parade", "Sports event"];
const locations = ["Riverside Park", "Market Square", "Old Town Hall steps", "Elm Street"];

interface Upload {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

type Draft = Record<string, string> & { site_plan?: Upload };

/**
 * "City of Riverton" event permits: a long form posted as multipart (with the site plan file),
 * validated on the server field by field, and a saved draft the page loads on start.
 */
const permit: SiteFactory = ({ dir }) => {
  const applications: Record<string, unknown>[] = [];
  let draft: Draft = {};
  return jsonApi(
    dir,
    {
      "GET /api/draft": () => draft,
      "POST /api/draft": ({ body }) => {
        const { site_plan, ...fields } = body;
        draft = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
        if (typeof site_plan === "string") draft.site_plan = { name: site_plan, size: 48_213, type: "application/pdf" };
        return draft;
      },
      "POST /api/applications": ({ body, form }) => {
        const f = (k: string) => (typeof body[k] === "string" ? (body[k] as string).trim() : "");
        const errors: Record<string, string> = {};
        if (!f("name")) errors.name = "Enter your full name";
        if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(f("email"))) errors.email = "Enter an email address in the correct format, like name@example.com";
        if (!f("event_name")) errors.event_name = "Enter the name of the event";
        if (!types.includes(f("event_type"))) errors.event_type = "Choose the type of event";
        if (!/^\d{4}-\d{2}-\d{2}$/.test(f("date")) || f("date") < "2026-05-01") errors.date = "Enter a date from 1 May 2026";
        const attendance = Number(f("attendance"));
        if (!Number.isInteger(attendance) || attendance < 1 || attendance > 5000) errors.attendance = "Enter the expected attendance, from 1 to 5000";
        if (!locations.includes(f("location"))) errors.location = "Choose a location";
        const roadClosure = f("road_closure") === "yes";
        if (roadClosure && !f("streets")) errors.streets = "Say which streets need closing";
        const file = form?.get("site_plan");
        const upload: Upload | undefined = file instanceof File && file.size > 0 ? { name: file.name, size: file.size, type: file.type } : draft.site_plan;
        if (!upload) errors.site_plan = "Attach a site plan";
        else if (!/\.(pdf|png)$/i.test(upload.name)) errors.site_plan = "The site plan must be a PDF or PNG";
        if (f("declaration") !== "yes") errors.declaration = "Confirm that the information is correct";
        if (Object.keys(errors).length) throw new HttpError(422, "There is a problem with your application", { errors });
        const application = {
          reference: `RIV-${2040 + applications.length}`,
          applicant: { name: f("name"), email: f("email"), phone: f("phone") },
          event: { name: f("event_name"), type: f("event_type"), date: f("date"), attendance, location: f("location"), road_closure: roadClosure, streets: f("streets") },
          site_plan: upload,
          declaration: true,
        };
        applications.push(application);
        draft = {};
        return application;
      },
      "GET /api/state": () => ({ applications }),
    },
    { spa: true },
  );
};

export default permit;
