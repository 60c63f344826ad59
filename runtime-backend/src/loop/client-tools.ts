import { Code, ConnectError } from "@connectrpc/connect";
import type { ClientTool } from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { type JsonSchema, toolRiskOf } from "@baton/sdk/contract";
import type { SessionClientTool } from "../store/sessions.js";

export type { SessionClientTool };

const namePattern = /^[a-z][a-z0-9_]{0,63}$/;

function invalid(message: string): never {
  throw new ConnectError(`client_tools: ${message}`, Code.InvalidArgument);
}

/**
 * Checks the tools a client declares at CreateSession: snake_case names, unique, not a built-in
 * tool's name, a description, a JSON object schema, and a risk. Anything else is InvalidArgument
 * with what to fix; nothing is stored. (How many, and how long each field, the proto says: the
 * edge checks that before this runs.)
 */
export function readClientTools(tools: readonly ClientTool[]): SessionClientTool[] {
  const seen = new Set<string>();
  return tools.map((t, i) => {
    const at = `client_tools[${i}] ("${t.name.slice(0, 64)}")`;
    if (!namePattern.test(t.name)) invalid(`${at}: the name must be snake_case, a letter first, at most 64 characters`);
    if (t.name in toolCatalog.tools) invalid(`${at}: "${t.name}" is a built-in tool; choose another name`);
    if (seen.has(t.name)) invalid(`${at}: declared twice`);
    seen.add(t.name);
    if (!t.description.trim()) invalid(`${at}: the description is empty; the model needs it to use the tool`);
    let parameters: JsonSchema;
    try {
      parameters = JSON.parse(t.parametersJson || '{"type":"object","properties":{}}') as JsonSchema;
    } catch (e) {
      invalid(`${at}: parameters_json is not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (typeof parameters !== "object" || parameters === null || parameters.type !== "object") {
      invalid(`${at}: parameters_json must be a JSON Schema with "type": "object"`);
    }
    const risk = toolRiskOf(t.risk);
    if (!risk) invalid(`${at}: set risk (read_only, mutating or irreversible)`);
    return { name: t.name, description: t.description.trim(), parameters, risk };
  });
}
