import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ToolErrorCode, ToolErrorSchema } from "@baton/gen/baton/v1/agent_pb";
import {
  ClickParamsSchema,
  KeyModifier,
  MouseButton,
  SearchUserMemoryResultSchema,
  TakeSnapshotResultSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { encodeToolError, toModelJson } from "./model-json.js";

describe("toModelJson", () => {
  it("uses snake_case names and short enum names, and drops defaults", () => {
    const params = create(ClickParamsSchema, {
      ref: "e1",
      button: MouseButton.MIDDLE,
      modifiers: [KeyModifier.SHIFT, KeyModifier.META],
      clickCount: 2,
    });
    expect(toModelJson(ClickParamsSchema, params)).toEqual({
      ref: "e1",
      button: "middle",
      click_count: 2,
      modifiers: ["shift", "meta"],
    });
  });

  it("keeps explicitly set optional zeroes, summarises bytes, rounds doubles, drops empty messages", () => {
    const snap = create(TakeSnapshotResultSchema, {
      text: '- button "OK" [e1]',
      nextOffset: 0,
      viewport: { width: 800, scrollY: 10.123456 },
      screenshot: { mimeType: "image/jpeg", data: new Uint8Array(2048) },
    });
    expect(toModelJson(TakeSnapshotResultSchema, snap)).toEqual({
      text: '- button "OK" [e1]',
      next_offset: 0,
      viewport: { width: 800, scroll_y: 10.12 },
      screenshot: { mime_type: "image/jpeg", data: "[2048 bytes]" },
    });
    expect(toModelJson(TakeSnapshotResultSchema, create(TakeSnapshotResultSchema, { viewport: {} }))).toEqual({});
  });

  it("writes timestamps as ISO strings inside repeated messages", () => {
    const at = new Date("2026-11-21T10:00:00.000Z");
    const res = create(SearchUserMemoryResultSchema, {
      records: [{ id: "m1", text: "Prefers aisle seats", createdAt: timestampFromDate(at), score: 0.5 }],
    });
    expect(toModelJson(SearchUserMemoryResultSchema, res)).toEqual({
      records: [{ id: "m1", text: "Prefers aisle seats", created_at: "2026-11-21T10:00:00.000Z", score: 0.5 }],
    });
  });

  it("encodes a ToolError with a fresh snapshot under an error key", () => {
    const err = create(ToolErrorSchema, {
      code: ToolErrorCode.STALE_REF,
      message: "The page re-rendered.",
      snapshot: { text: "- link \"Home\" [e1]", refCount: 1 },
    });
    expect(JSON.parse(encodeToolError(err))).toEqual({
      error: { code: "stale_ref", message: "The page re-rendered.", snapshot: { text: '- link "Home" [e1]', ref_count: 1 } },
    });
  });
});
