/**
 * The tool contract at runtime: read a model's tool call into a typed message, dispatch it to
 * a typed handler, and encode results and errors for the model. Works for Baton's catalog and
 * for any catalog protoc-gen-baton generates.
 */
export { type Catalog, callRisk, findTool, pageActionClass, type RouteCatalog, toolByCase, type ToolRisk, type ToolRoute, type ToolSide, type ToolSpec } from "./catalog.js";
export { clientToolsOf, riskEnum, toolRiskOf } from "./client-tools.js";
export {
  anthropicTool,
  type DeclaredTool,
  type GeminiSchema,
  geminiFunctionDeclaration,
  type McpDeclaredTool,
  mcpTool,
  mcpToolAnnotations,
  openAiChatTool,
  openAiResponsesTool,
  toGeminiSchema,
} from "./declarations.js";
export { type AnyToolHandlers, type Dispatched, dispatchToolCall } from "./dispatch.js";
export type { JsonSchema } from "./json-schema.js";
export { encodeToolError, encodeToolResult, toModelJson } from "./model-json.js";
export { modelEnumName, modelEnumValues } from "./names.js";
export { type RefLabel, refLabels, refLinePattern, refsInText } from "./snapshot-lines.js";
export {
  defaultParseLimits,
  exampleArgs,
  type ParsedToolCall,
  type ParseLimits,
  parseToolCall,
} from "./parse-tool-call.js";
export { type ArgLimits, type ArgProblem, readArgs } from "./read-args.js";
export { ToolErrorCode, ToolFailure, type ToolFailureDetails, toolError } from "./tool-error.js";
export { type TypingScope, typingOrigins } from "./typing-scope.js";
export { type MaskScope, type ScreenMask, screenMaskOf } from "./screen-mask.js";
