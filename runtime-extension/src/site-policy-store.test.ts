import { describe, expect, it } from "vitest";
import { siteListErrors, siteListsFromText } from "./site-policy-store.js";

describe("the extension's site lists", () => {
  it("reads one entry per line (commas and semicolons too), dropping blanks", () => {
    expect(siteListsFromText({ allowed: " shop.example \n\n*.bank.example; https://a.example:8443", blocked: "", readOnly: "bank.example," })).toEqual({
      allowed: ["shop.example", "*.bank.example", "https://a.example:8443"],
      blocked: [],
      readOnly: ["bank.example"],
    });
  });

  it("names every bad entry with its list, as the policy module's parser says", () => {
    expect(siteListErrors({ allowed: ["shop.example"], blocked: ["not a site!", "https://ok.example"], readOnly: ["ftp://files.example"] })).toEqual([
      'Blocked sites: "not a site!" is neither an origin (https://example.com) nor a host (example.com, *.example.com)',
      'Read-only sites: "ftp://files.example" is neither an origin (https://example.com) nor a host (example.com, *.example.com)',
    ]);
    expect(siteListErrors({ allowed: [], blocked: ["localhost", "http://localhost:3000", "*.ads.example"], readOnly: [] })).toEqual([]);
  });
});
