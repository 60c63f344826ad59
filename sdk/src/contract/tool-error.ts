import { create } from "@bufbuild/protobuf";
import type { TakeSnapshotResult } from "@baton/gen/baton/v1/tools_pb";
import { type ToolError, ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { ToolErrorSchema } from "@baton/gen/baton/v1/descriptors";

/** Options of a tool failure besides its code and message. */
export interface ToolFailureDetails {
  /** The snake_case tool name. */
  tool?: string;
  /** The parameter at fault. */
  field?: string;
  /** A fresh snapshot, when the page changed under the call. */
  snapshot?: TakeSnapshotResult;
}

/** Builds a `ToolError` message: data for the model, never an exception. */
export function toolError(code: ToolErrorCode, message: string, details: ToolFailureDetails = {}): ToolError {
  return create(ToolErrorSchema, {
    code,
    message,
    tool: details.tool ?? "",
    field: details.field ?? "",
    ...(details.snapshot ? { snapshot: details.snapshot } : {}),
  });
}

/**
 * Thrown by a tool handler to fail with a specific code; the dispatcher turns it into a
 * `ToolError`. Any other exception becomes `TOOL_ERROR_CODE_INTERNAL`.
 */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";

  constructor(
    readonly code: ToolErrorCode,
    message: string,
    readonly details: ToolFailureDetails = {},
  ) {
    super(message);
  }

  /** The failure as a `ToolError` for `tool`. */
  toToolError(tool: string): ToolError {
    return toolError(this.code, this.message, { tool, ...this.details });
  }
}

export { ToolErrorCode };
