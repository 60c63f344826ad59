import type { SiteLists } from "@baton/sdk/policy";
import { useEffect, useState } from "preact/hooks";
import { loadSiteLists, saveSiteLists, siteListErrors, siteListLabels, siteListsFromText } from "../site-policy-store.js";
import { FormActions } from "./form-parts.js";

const help: Record<keyof SiteLists, string> = {
  allowed: "With entries, the agent opens only these sites. Empty: any site.",
  blocked: "Never opened by the agent; a page it lands on is left.",
  readOnly: "The agent may read these pages, but not click, type or change anything there.",
};

const asText = (l: SiteLists): Record<keyof SiteLists, string> => ({ allowed: l.allowed.join("\n"), blocked: l.blocked.join("\n"), readOnly: l.readOnly.join("\n") });

/**
 * Settings' Site policy section: the allowed, blocked and read-only site lists, one origin
 * (https://shop.example) or host (example.com, *.example.com) per line. Each entry is checked by
 * the policy module's parser on Save; every bad one is named and nothing is saved.
 */
export function SitePolicySection() {
  const [text, setText] = useState<Record<keyof SiteLists, string>>({ allowed: "", blocked: "", readOnly: "" });
  const [errors, setErrors] = useState<string[]>([]);
  const [message, setMessage] = useState("");
  useEffect(() => {
    // What is saved, unless the user started typing first.
    void loadSiteLists().then((l) => setText((t) => (t.allowed || t.blocked || t.readOnly ? t : asText(l))));
  }, []);
  return (
    <form
      class="settings site-policy"
      aria-label="Site policy"
      onSubmit={async (e) => {
        e.preventDefault();
        const lists = siteListsFromText(text);
        const bad = siteListErrors(lists);
        setErrors(bad);
        if (bad.length > 0) return setMessage("Not saved.");
        setText(asText(await saveSiteLists(lists)));
        setMessage("Saved. It holds from the next task on.");
      }}
    >
      <fieldset>
        <legend>Site policy</legend>
        <p class="help">Origins (https://shop.example) or hosts (example.com, *.example.com), one per line. With a backend, its policy for you and your team applies too.</p>
        {(Object.keys(siteListLabels) as (keyof SiteLists)[]).map((k) => (
          <div class="field" key={k}>
            <label for={`sites-${k}`}>{siteListLabels[k]}</label>
            <textarea id={`sites-${k}`} rows={2} value={text[k]} onInput={(e) => {
                const value = e.currentTarget.value;
                setText((t) => ({ ...t, [k]: value }));
              }} spellcheck={false} />
            <p class="help">{help[k]}</p>
          </div>
        ))}
        {errors.length ? (
          <ul class="form-error" role="alert">
            {errors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : null}
      </fieldset>
      <FormActions message={message} label="Save site policy" />
    </form>
  );
}
