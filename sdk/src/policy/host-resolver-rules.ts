import type { SitePattern } from "./site-list.js";
import { hasSiteLists, type UrlPolicy } from "./url-policy.js";

/**
 * How Chromium may write each spelling of this machine in a host-resolver rule: the host
 * alone (IPv6 without brackets) and with a port (IPv6 in brackets). Rules match the host
 * text as written, so every loopback form a URL can canonicalise to is listed for blocking.
 */
const loopbackToBlock: readonly [string, boolean][] = [
  ["localhost", false],
  ["localhost.", false],
  ["*.localhost", false],
  ["*.localhost.", false],
  ["127.*", false],
  ["0.0.0.0", false],
  ["::1", true],
  ["::", true],
  ["::ffff:7f*", true],
  ["::7f*", true],
  ["::ffff:0:0", true],
];

/**
 * The loopback spellings let through when a list allows this machine. Only the usual ones:
 * a wildcard would also let through names such as `127.a.example` that resolve anywhere.
 */
const loopbackToAllow: readonly [string, boolean][] = [
  ["localhost", false],
  ["127.0.0.1", false],
  ["::1", true],
];

/** One host text a rule names: IPv6 is bare in a host pattern, bracketed with a port and as a replacement. */
interface HostForm {
  readonly host: string;
  readonly v6: boolean;
  readonly port: string | undefined;
}

const withPort = (f: HostForm, host: string): string => (f.port ? `${host}:${f.port}` : host);
/** The text a rule matches. */
const pattern = (f: HostForm): string => withPort(f, f.v6 && f.port ? `[${f.host}]` : f.host);
/** The text a rule maps to (a host maps to itself to be let through). */
const target = (f: HostForm): string => withPort(f, f.v6 ? `[${f.host}]` : f.host);

/** The host forms of a pattern: every spelling of this machine from `loopback`, or the name with and without its trailing dot. */
function forms(p: SitePattern, loopback: readonly [string, boolean][]): HostForm[] {
  // The pattern of an allow list that allows nothing (`mergeUrlPolicies`) names no host.
  if (p.host.name === "") return [];
  const v6 = p.host.name.startsWith("[");
  const hosts: [string, boolean][] = p.host.loopback ? [...loopback] : v6 ? [[p.host.name.slice(1, -1), true]] : [[p.host.name, false], [`${p.host.name}.`, false]];
  return hosts.map(([host, isV6]) => ({ host, v6: isV6, port: p.port }));
}

/**
 * The `--host-resolver-rules` value that holds a Chromium Baton launches to the policy's site
 * lists at the network level, where the Fetch-domain guard does not reach: WebSockets above
 * all (DevTools cannot intercept or block them), and anything else that resolves a host (DNS
 * prefetch). A blocked host resolves to nothing; with an allow list, only the allowed hosts
 * resolve. Undefined when the policy has no lists.
 *
 * Coarser than `decideUrl`, by what Chromium's rules can say: they match a host or host:port
 * (never a scheme), loopback is let through only as `localhost`, `127.0.0.1` and `[::1]`, and
 * a blocked host inside an allowed `*.domain` is let through here (an exclusion cancels every
 * rule that matches it) — its pages and requests are still refused by the Fetch guard.
 */
export function hostResolverRules(policy: UrlPolicy): string | undefined {
  if (!hasSiteLists(policy)) return undefined;
  const rules: string[] = [];
  for (const p of policy.blocked) {
    for (const f of forms(p, loopbackToBlock)) rules.push(`MAP ${pattern(f)} ~NOTFOUND`);
    if (p.subdomains && !p.host.loopback && p.host.name) for (const f of [`*.${p.host.name}`, `*.${p.host.name}.`]) rules.push(`MAP ${f} ~NOTFOUND`);
  }
  if (policy.allowed.length > 0) {
    for (const p of policy.allowed) {
      for (const f of forms(p, loopbackToAllow)) rules.push(`MAP ${pattern(f)} ${target(f)}`);
      if (p.subdomains && !p.host.loopback) rules.push(`EXCLUDE *.${p.host.name}`, `EXCLUDE *.${p.host.name}.`);
    }
    rules.push("MAP * ~NOTFOUND");
  }
  return [...new Set(rules)].join(", ");
}
