import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs } from "../command/args.js";
import { SecretArgError, secretsFromArgs } from "./secret-args.js";

const dir = mkdtempSync(join(tmpdir(), "baton-secret-args-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, "pw");
writeFileSync(file, "hunter2\n");
const seedFile = join(dir, "seed.txt");
writeFileSync(seedFile, "JBSW Y3DP EHPK 3PXP\n");
const notSeed = join(dir, "not-seed.txt");
writeFileSync(notSeed, "correct horse battery staple!\n");

const parse = (...argv: string[]) => parseArgs(["task", ...argv]);

describe("baton run --secret", () => {
  it("reads values from files and the environment, scoped to the start URL's origin unless told otherwise", () => {
    const s = secretsFromArgs(
      parse("--secret", `pw=@${file}`, "--secret=token=env:MY_TOKEN", "--secret-origin", "token=https://api.example.com", "--secret-origin", "token=https://b.example.com"),
      { MY_TOKEN: "t0k" },
      "https://app.example.com/login",
    );
    expect(s).toEqual([
      { name: "pw", value: "hunter2", origins: ["https://app.example.com"] },
      { name: "token", value: "t0k", origins: ["https://api.example.com", "https://b.example.com"] },
    ]);
    expect(secretsFromArgs(parse("--secret", `pw=@${file}`, "--secret-origin", "pw=*"), {}, undefined)[0]?.origins).toEqual(["*"]);
  });

  it("reads a TOTP seed with totp: before the file or variable", () => {
    const s = secretsFromArgs(parse("--secret", `otp=totp:@${seedFile}`, "--secret", "otp2=totp:env:SEED"), { SEED: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=8" }, "https://app.example.com/");
    expect(s).toEqual([
      { name: "otp", value: "JBSW Y3DP EHPK 3PXP", kind: "totp", origins: ["https://app.example.com"], code: expect.any(Function) },
      { name: "otp2", value: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&digits=8", kind: "totp", origins: ["https://app.example.com"], code: expect.any(Function) },
    ]);
    // Each carries its seed's current code: 6 digits, and 8 where the link asks for 8.
    expect([s[0]?.code?.(59_000), s[1]?.code?.(59_000)].map((c) => c?.length)).toEqual([6, 8]);
  });

  const bad: [string, string[], RegExp][] = [
    ["a TOTP seed that is not one", ["--secret", `otp=totp:@${notSeed}`, "--secret-origin", "otp=*"], /secret "otp": the one-time code's key is not Base32/],
    ["a TOTP seed on the command line", ["--secret", "otp=totp:JBSWY3DPEHPK3PXP"], /from a file/],
    ["a value on the command line", ["--secret", "pw=hunter2"], /from a file \(--secret pw=@path\/to\/file\) or an environment variable .* shell history/],
    ["a missing file", ["--secret", `pw=@${join(dir, "nope")}`], /cannot read/],
    ["an unset variable", ["--secret", "pw=env:NOPE"], /NOPE is not set/],
    ["no scope and no start URL", ["--secret", `pw=@${file}`], /--secret-origin pw=https:\/\/site.example .* or give --start-url/],
    ["an origin for no secret", ["--secret", `pw=@${file}`, "--secret-origin", "pin=https://a.example"], /name a secret given with --secret/],
    ["a bad name", ["--secret", `9pw=@${file}`, "--secret-origin", "9pw=*"], /secret name "9pw"/],
    ["no value at all", ["--secret"], /needs a value/],
  ];
  it.each(bad)("refuses %s, saying what to do", (_what, argv, message) => {
    expect(() => secretsFromArgs(parse(...argv), {}, undefined)).toThrow(SecretArgError);
    expect(() => secretsFromArgs(parse(...argv), {}, undefined)).toThrow(message);
  });
});
