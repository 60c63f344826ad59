import { describe, expect, it } from "vitest";
import { chromiumSwitches } from "./launch-chromium.js";

describe("chromiumSwitches", () => {
  it("turns on computed accessibility info and keeps the caller's switches", () => {
    const args = chromiumSwitches({ args: ["--site-per-process"] }, "/tmp/profile");
    expect(args).toContain("--site-per-process");
    expect(args).toContain("--headless");
    expect(args).toContain("--user-data-dir=/tmp/profile");
    expect(args.filter((a) => a.startsWith("--enable-blink-features="))).toEqual(["--enable-blink-features=ComputedAccessibilityInfo"]);
    expect(args.at(-1)).toBe("about:blank");
  });

  it("joins the caller's Blink features with ours into one switch, since Chromium keeps only the last", () => {
    const args = chromiumSwitches({ args: ["--enable-blink-features=Foo,Bar", "--enable-blink-features=ComputedAccessibilityInfo"], headless: false }, "/p");
    expect(args.filter((a) => a.startsWith("--enable-blink-features="))).toEqual(["--enable-blink-features=ComputedAccessibilityInfo,Foo,Bar"]);
    expect(args).not.toContain("--headless");
  });
});
