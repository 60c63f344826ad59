import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type DeviceLink, DeviceLinkStatus } from "@baton/gen/baton/v1/console_pb";
import { DeviceLinkSchema } from "@baton/gen/baton/v1/descriptors";
import type { Queryable, Row } from "./db.js";

/** A device link as stored. */
export interface DeviceLinkRow {
  readonly id: string;
  readonly codeChallenge: string;
  readonly deviceName: string;
  readonly client: string;
  readonly origin: string;
  readonly userCode: string;
  readonly status: DeviceLinkStatus;
  readonly userId: string | null;
  readonly tokenName: string;
  /** The one-time code, until it is exchanged. */
  readonly code: string | null;
  readonly codeExpiresAt: Date | null;
  readonly tokenId: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

function date(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}

function fromRow(r: Row): DeviceLinkRow {
  return {
    id: String(r.id),
    codeChallenge: String(r.code_challenge),
    deviceName: String(r.device_name),
    client: String(r.client),
    origin: String(r.origin),
    userCode: String(r.user_code),
    status: Number(r.status) as DeviceLinkStatus,
    userId: r.user_id == null ? null : String(r.user_id),
    tokenName: String(r.token_name),
    code: r.code == null ? null : String(r.code),
    codeExpiresAt: r.code_expires_at == null ? null : date(r.code_expires_at),
    tokenId: r.token_id == null ? null : String(r.token_id),
    createdAt: date(r.created_at),
    expiresAt: date(r.expires_at),
  };
}

/** A link as the console shows it; a pending or approved link past its time reads as expired. */
export function deviceLinkMessage(l: DeviceLinkRow, now = Date.now()): DeviceLink {
  return create(DeviceLinkSchema, {
    linkId: l.id,
    deviceName: l.deviceName,
    client: l.client,
    userCode: l.userCode,
    status: effectiveStatus(l, now),
    origin: l.origin,
    createdAt: timestampFromDate(l.createdAt),
    expiresAt: timestampFromDate(l.expiresAt),
  });
}

/** The status, with time applied: a pending link past its expiry, or an approved one whose code lapsed, is expired. */
export function effectiveStatus(l: DeviceLinkRow, now = Date.now()): DeviceLinkStatus {
  if (l.status === DeviceLinkStatus.PENDING && l.expiresAt.getTime() <= now) return DeviceLinkStatus.EXPIRED;
  if (l.status === DeviceLinkStatus.APPROVED && (l.codeExpiresAt?.getTime() ?? 0) <= now) return DeviceLinkStatus.EXPIRED;
  return l.status;
}

/** Stores a new pending link. */
export async function insertDeviceLink(
  q: Queryable,
  l: Pick<DeviceLinkRow, "id" | "codeChallenge" | "deviceName" | "client" | "origin" | "userCode" | "expiresAt">,
): Promise<DeviceLinkRow> {
  const rows = await q.query(
    `insert into device_links (id, code_challenge, device_name, client, origin, user_code, status, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning *`,
    [l.id, l.codeChallenge, l.deviceName, l.client, l.origin, l.userCode, DeviceLinkStatus.PENDING, l.expiresAt],
  );
  return fromRow(rows[0] as Row);
}

/** A link by id, or undefined. `forUpdate` locks its row in a transaction. */
export async function getDeviceLink(q: Queryable, id: string, forUpdate = false): Promise<DeviceLinkRow | undefined> {
  const rows = await q.query(`select * from device_links where id = $1${forUpdate ? " for update" : ""}`, [id]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** The link a code (by its hash) was issued for, locked for the exchange. */
export async function deviceLinkByCodeHash(q: Queryable, codeHash: string): Promise<DeviceLinkRow | undefined> {
  const rows = await q.query("select * from device_links where code_hash = $1 for update", [codeHash]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/** Approves a pending link for a user with its one-time code; false when it was no longer pending. */
export async function approveDeviceLink(
  q: Queryable,
  id: string,
  o: { userId: string; tokenName: string; code: string; codeHash: string; codeExpiresAt: Date },
): Promise<boolean> {
  const rows = await q.query(
    `update device_links set status = $2, user_id = $3, token_name = $4, code = $5, code_hash = $6, code_expires_at = $7
      where id = $1 and status = $8 and expires_at > now() returning id`,
    [id, DeviceLinkStatus.APPROVED, o.userId, o.tokenName, o.code, o.codeHash, o.codeExpiresAt, DeviceLinkStatus.PENDING],
  );
  return rows.length === 1;
}

/** Denies a pending link; false when it was no longer pending. */
export async function denyDeviceLink(q: Queryable, id: string, userId: string): Promise<boolean> {
  const rows = await q.query("update device_links set status = $2, user_id = $3 where id = $1 and status = $4 returning id", [
    id,
    DeviceLinkStatus.DENIED,
    userId,
    DeviceLinkStatus.PENDING,
  ]);
  return rows.length === 1;
}

/** Marks a link exchanged for a token; its plain code is forgotten (its hash stays, to spot a replay). */
export async function markExchanged(q: Queryable, id: string, tokenId: string): Promise<void> {
  await q.query("update device_links set status = $2, token_id = $3, code = null where id = $1", [id, DeviceLinkStatus.EXCHANGED, tokenId]);
}
