import type { DescMessage, Message } from "@bufbuild/protobuf";
import { type ToolError } from "@baton/gen/baton/v1/agent_pb";
import { type Image } from "@baton/gen/baton/v1/tools_pb";
import { ImageSchema, TakeSnapshotResultSchema, ToolErrorSchema } from "@baton/gen/baton/v1/descriptors";
import { toModelJson } from "@baton/sdk/contract";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

type Content = CallToolResult["content"][number];

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

/**
 * A tool's result as MCP content: the small fields as one line of compact JSON (the model's
 * own format, `toModelJson`), then each multi-line text (a snapshot, extracted content) as
 * plain text rather than a JSON-escaped string, then each image as image content.
 */
export function resultContent(desc: DescMessage, result: Message): Content[] {
  const json = toModelJson(desc, result as never);
  const texts: string[] = [];
  const images: Content[] = [];
  for (const field of desc.fields) {
    const v = json[field.name];
    if (field.fieldKind === "message" && field.message.typeName === ImageSchema.typeName) {
      const image = (result as unknown as Record<string, Image | undefined>)[field.localName];
      if (image && image.data.length > 0) {
        images.push({ type: "image", data: base64(image.data), mimeType: image.mimeType || "image/jpeg" });
        const { data: _data, ...rest } = v as Record<string, unknown>;
        json[field.name] = rest as never;
      }
    } else if (typeof v === "string" && v.includes("\n")) {
      texts.push(v);
      delete json[field.name];
    }
  }
  const head = Object.keys(json).length > 0 ? [{ type: "text" as const, text: JSON.stringify(json) }] : [];
  return [...head, ...texts.map((text) => ({ type: "text" as const, text })), ...images];
}

/**
 * A tool error as an MCP error result (`isError`): the code and the actionable message on one
 * line, and the fresh snapshot when the page changed under the call.
 */
export function errorResult(error: ToolError): CallToolResult {
  const { code } = toModelJson(ToolErrorSchema, error);
  const where = error.field ? ` (${error.field})` : "";
  const content: Content[] = [{ type: "text", text: `Error ${String(code ?? "unknown")}${where}: ${error.message}` }];
  if (error.snapshot) content.push(...resultContent(TakeSnapshotResultSchema, error.snapshot));
  return { content, isError: true };
}
