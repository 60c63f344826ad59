import { createHash, randomBytes, randomInt } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { type DeviceLink, DeviceLinkStatus, type ExchangeDeviceCodeResponse, type PollDeviceLinkResponse, type StartDeviceLinkRequest, type StartDeviceLinkResponse } from "@baton/gen/baton/v1/console_pb";
import { ExchangeDeviceCodeResponseSchema, PollDeviceLinkResponseSchema, StartDeviceLinkResponseSchema } from "@baton/gen/baton/v1/descriptors";
import {
  approveDeviceLink,
  denyDeviceLink,
  deviceLinkByCodeHash,
  deviceLinkMessage,
  effectiveStatus,
  getDeviceLink,
  insertDeviceLink,
  markExchanged,
} from "../store/device-links.js";
import { sameSecret } from "../base/same-secret.js";
import { hashToken, newId } from "../store/ids.js";
import { revokeToken, tokenRecord } from "../store/api-tokens.js";
import { issueToken } from "../store/users.js";
import { accountOf } from "./accounts.js";
import type { ConsoleDeps } from "./deps.js";
import { revoked } from "./api-tokens.js";

/** How long a link waits for the user's approval. */
export const linkTtlMs = 10 * 60_000;
/** How long an approved link's code may be exchanged. */
export const codeTtlMs = 5 * 60_000;
/** How often a device should poll. */
export const pollIntervalMs = 1_000;

/** RFC 7636 §4.1: a verifier is 43-128 characters of the unreserved set. */
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;
/** BASE64URL of a SHA-256 digest, without padding. */
const challengePattern = /^[A-Za-z0-9_-]{43}$/;
/** RFC 8628 §6.1: consonants only, so no word is spelled and nothing is confused. */
const userCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ";

/** The S256 challenge of a verifier: BASE64URL(SHA-256(ASCII(verifier))). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

function userCode(): string {
  const c = () => userCodeAlphabet[randomInt(userCodeAlphabet.length)];
  return `${c()}${c()}${c()}${c()}-${c()}${c()}${c()}${c()}`;
}

/** A device asks to be linked: a pending link the user approves at `approve_url`. */
export async function startDeviceLink(deps: ConsoleDeps, base: string, origin: string, req: StartDeviceLinkRequest): Promise<StartDeviceLinkResponse> {
  if (req.codeChallengeMethod !== "S256") {
    throw new ConnectError(`code_challenge_method must be "S256" (got "${req.codeChallengeMethod.slice(0, 16)}")`, Code.InvalidArgument);
  }
  if (!challengePattern.test(req.codeChallenge)) {
    throw new ConnectError("code_challenge must be BASE64URL(SHA-256(code_verifier)) without padding: 43 characters", Code.InvalidArgument);
  }
  if (!req.deviceName.trim()) throw new ConnectError("device_name is required: what the user will see (\"Chrome on ada-laptop\")", Code.InvalidArgument);
  const link = await insertDeviceLink(deps.db, {
    id: newId("dl"),
    codeChallenge: req.codeChallenge,
    deviceName: req.deviceName.trim(),
    client: req.client.trim(),
    origin: origin.slice(0, 200),
    userCode: userCode(),
    expiresAt: new Date(Date.now() + linkTtlMs),
  });
  return create(StartDeviceLinkResponseSchema, {
    linkId: link.id,
    userCode: link.userCode,
    approveUrl: `${base}/link/${link.id}`,
    expiresAt: timestampFromDate(link.expiresAt),
    pollIntervalMs,
  });
}

/** How a link stands; an approved one carries its code until the code is exchanged. */
export async function pollDeviceLink(deps: ConsoleDeps, linkId: string): Promise<PollDeviceLinkResponse> {
  const link = await getDeviceLink(deps.db, linkId);
  if (!link) throw new ConnectError(`device link ${linkId.slice(0, 64)} not found`, Code.NotFound);
  const status = effectiveStatus(link);
  return create(PollDeviceLinkResponseSchema, { status, code: status === DeviceLinkStatus.APPROVED ? (link.code ?? "") : "" });
}

/** A link for the approval page. */
export async function showDeviceLink(deps: ConsoleDeps, linkId: string): Promise<DeviceLink> {
  const link = await getDeviceLink(deps.db, linkId);
  if (!link) throw new ConnectError(`device link ${linkId.slice(0, 64)} not found`, Code.NotFound);
  return deviceLinkMessage(link);
}

/** The signed-in user approves the link (it gets a one-time code) or denies it. */
export async function decideDeviceLink(deps: ConsoleDeps, userId: string, linkId: string, approve: boolean, tokenName: string): Promise<DeviceLink> {
  const link = await getDeviceLink(deps.db, linkId);
  if (!link) throw new ConnectError(`device link ${linkId.slice(0, 64)} not found`, Code.NotFound);
  const status = effectiveStatus(link);
  if (status !== DeviceLinkStatus.PENDING) {
    throw new ConnectError(`this link is ${DeviceLinkStatus[status].toLowerCase()}; start linking again on the device`, Code.FailedPrecondition);
  }
  const ok = approve
    ? await (async () => {
        const code = `dc_${randomBytes(32).toString("base64url")}`;
        return approveDeviceLink(deps.db, link.id, {
          userId,
          tokenName: tokenName.trim() || link.deviceName,
          code,
          codeHash: await hashToken(code),
          codeExpiresAt: new Date(Date.now() + codeTtlMs),
        });
      })()
    : await denyDeviceLink(deps.db, link.id, userId);
  if (!ok) throw new ConnectError("this link was decided or expired meanwhile; start linking again on the device", Code.FailedPrecondition);
  return showDeviceLink(deps, link.id);
}

/**
 * Trades an approved link's code and the device's PKCE verifier for an API token bound to the
 * device. A code works once: a replay is refused, and when the replay also holds the right
 * verifier, the token the code gave is revoked (RFC 6749 §4.1.2: a reused code means it leaked).
 */
export async function exchangeDeviceCode(deps: ConsoleDeps, code: string, verifier: string): Promise<ExchangeDeviceCodeResponse> {
  if (!verifierPattern.test(verifier)) {
    throw new ConnectError("code_verifier must be 43-128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~' (RFC 7636 §4.1)", Code.InvalidArgument);
  }
  const outcome = await deps.db.transaction(async (tx) => {
    const link = await deviceLinkByCodeHash(tx, await hashToken(code));
    if (!link) return { error: new ConnectError("unknown device code", Code.NotFound) };
    const matches = sameSecret(s256(verifier), link.codeChallenge);
    if (link.status === DeviceLinkStatus.EXCHANGED) {
      if (matches && link.tokenId) {
        await revokeToken(tx, link.tokenId);
        return {
          error: new ConnectError("this code was already exchanged; the token it gave has been revoked: link the device again", Code.FailedPrecondition),
          revokedId: link.tokenId,
        };
      }
      return { error: new ConnectError("this code was already exchanged", Code.FailedPrecondition) };
    }
    if (effectiveStatus(link) !== DeviceLinkStatus.APPROVED || !link.userId) {
      return { error: new ConnectError("this code has expired: link the device again", Code.FailedPrecondition) };
    }
    if (!matches) return { error: new ConnectError("code_verifier does not match the code_challenge this link was started with", Code.PermissionDenied) };
    const issued = await issueToken(tx, link.userId, {
      name: link.tokenName || link.deviceName,
      source: "device-link",
      device: link.client ? `${link.deviceName} · ${link.client}` : link.deviceName,
    });
    await markExchanged(tx, link.id, issued.id);
    return { issued, userId: link.userId };
  });
  if ("revokedId" in outcome && outcome.revokedId) await revoked(deps, outcome.revokedId);
  if ("error" in outcome) throw outcome.error;
  const record = await tokenRecord(deps.db, outcome.issued.id);
  return create(ExchangeDeviceCodeResponseSchema, {
    token: outcome.issued.token,
    ...(record ? { info: record.token } : {}),
    account: await accountOf(deps.db, outcome.userId),
  });
}
