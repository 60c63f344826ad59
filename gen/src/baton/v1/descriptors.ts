import type { DescFile } from "@bufbuild/protobuf";
import { createFileRegistry } from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { file_google_protobuf_timestamp } from "@bufbuild/protobuf/wkt";
import type { AccessSchema as AccessSchema$1, CatalogOptionsSchema as CatalogOptionsSchema$1, ExecutorSideSchema as ExecutorSideSchema$1, FieldConstraintsSchema as FieldConstraintsSchema$1, file_baton_v1_options as file_baton_v1_options$1, MethodConstraintsSchema as MethodConstraintsSchema$1, RiskSchema as RiskSchema$1, ToolOptionsSchema as ToolOptionsSchema$1 } from "./options_pb.js";
import { enumDesc, messageDesc, serviceDesc } from "@bufbuild/protobuf/codegenv2";
import type { AskUserParamsSchema as AskUserParamsSchema$1, AskUserResultSchema as AskUserResultSchema$1, ClickParamsSchema as ClickParamsSchema$1, ClickResultSchema as ClickResultSchema$1, CloseTabParamsSchema as CloseTabParamsSchema$1, CloseTabResultSchema as CloseTabResultSchema$1, DialogSchema as DialogSchema$1, DoneParamsSchema as DoneParamsSchema$1, DoneResultSchema as DoneResultSchema$1, DragParamsSchema as DragParamsSchema$1, DragResultSchema as DragResultSchema$1, ElementSummarySchema as ElementSummarySchema$1, EvidenceSchema as EvidenceSchema$1, ExtractFormatSchema as ExtractFormatSchema$1, ExtractParamsSchema as ExtractParamsSchema$1, ExtractResultSchema as ExtractResultSchema$1, file_baton_v1_tools as file_baton_v1_tools$1, GoBackParamsSchema as GoBackParamsSchema$1, GoBackResultSchema as GoBackResultSchema$1, HoverParamsSchema as HoverParamsSchema$1, HoverResultSchema as HoverResultSchema$1, ImageSchema as ImageSchema$1, KeyModifierSchema as KeyModifierSchema$1, LinkSchema as LinkSchema$1, ListTabsParamsSchema as ListTabsParamsSchema$1, ListTabsResultSchema as ListTabsResultSchema$1, MemoryRecordSchema as MemoryRecordSchema$1, MouseButtonSchema as MouseButtonSchema$1, NavigateParamsSchema as NavigateParamsSchema$1, NavigateResultSchema as NavigateResultSchema$1, OpenTabParamsSchema as OpenTabParamsSchema$1, OpenTabResultSchema as OpenTabResultSchema$1, PressKeysParamsSchema as PressKeysParamsSchema$1, PressKeysResultSchema as PressKeysResultSchema$1, SaveMemoryParamsSchema as SaveMemoryParamsSchema$1, SaveMemoryResultSchema as SaveMemoryResultSchema$1, ScreenshotParamsSchema as ScreenshotParamsSchema$1, ScreenshotResultSchema as ScreenshotResultSchema$1, ScrollDirectionSchema as ScrollDirectionSchema$1, ScrollParamsSchema as ScrollParamsSchema$1, ScrollResultSchema as ScrollResultSchema$1, SearchUserMemoryParamsSchema as SearchUserMemoryParamsSchema$1, SearchUserMemoryResultSchema as SearchUserMemoryResultSchema$1, SelectOptionParamsSchema as SelectOptionParamsSchema$1, SelectOptionResultSchema as SelectOptionResultSchema$1, SelectTextParamsSchema as SelectTextParamsSchema$1, SelectTextResultSchema as SelectTextResultSchema$1, SetValueParamsSchema as SetValueParamsSchema$1, SetValueResultSchema as SetValueResultSchema$1, SwitchTabParamsSchema as SwitchTabParamsSchema$1, SwitchTabResultSchema as SwitchTabResultSchema$1, TabSchema as TabSchema$1, TakeSnapshotParamsSchema as TakeSnapshotParamsSchema$1, TakeSnapshotResultSchema as TakeSnapshotResultSchema$1, ToolCallSchema as ToolCallSchema$1, ToolResultSchema as ToolResultSchema$1, TypeTextParamsSchema as TypeTextParamsSchema$1, TypeTextResultSchema as TypeTextResultSchema$1, UploadFileParamsSchema as UploadFileParamsSchema$1, UploadFileResultSchema as UploadFileResultSchema$1, ViewportSchema as ViewportSchema$1, WaitForParamsSchema as WaitForParamsSchema$1, WaitForResultSchema as WaitForResultSchema$1 } from "./tools_pb.js";
import type { AgentMessageSchema as AgentMessageSchema$1, AgentService as AgentService$1, ApprovalRuleSchema as ApprovalRuleSchema$1, ApprovalSchema as ApprovalSchema$1, ApprovalScopeSchema as ApprovalScopeSchema$1, BudgetSchema as BudgetSchema$1, ClientToolSchema as ClientToolSchema$1, CreatePlaybookRequestSchema as CreatePlaybookRequestSchema$1, CreatePlaybookResponseSchema as CreatePlaybookResponseSchema$1, CreateSessionRequestSchema as CreateSessionRequestSchema$1, CreateSessionResponseSchema as CreateSessionResponseSchema$1, DecideApprovalRequestSchema as DecideApprovalRequestSchema$1, DecideApprovalResponseSchema as DecideApprovalResponseSchema$1, ExtensionCallSchema as ExtensionCallSchema$1, ExtensionResultSchema as ExtensionResultSchema$1, file_baton_v1_agent as file_baton_v1_agent$1, FunctionCallSchema as FunctionCallSchema$1, GetPlaybookRequestSchema as GetPlaybookRequestSchema$1, GetPlaybookResponseSchema as GetPlaybookResponseSchema$1, GetScreenshotRequestSchema as GetScreenshotRequestSchema$1, GetScreenshotResponseSchema as GetScreenshotResponseSchema$1, GetSessionRequestSchema as GetSessionRequestSchema$1, GetSessionResponseSchema as GetSessionResponseSchema$1, GetSitePolicyRequestSchema as GetSitePolicyRequestSchema$1, GetSitePolicyResponseSchema as GetSitePolicyResponseSchema$1, HistoryEntrySchema as HistoryEntrySchema$1, ListApprovalRulesRequestSchema as ListApprovalRulesRequestSchema$1, ListApprovalRulesResponseSchema as ListApprovalRulesResponseSchema$1, ListPlaybooksRequestSchema as ListPlaybooksRequestSchema$1, ListPlaybooksResponseSchema as ListPlaybooksResponseSchema$1, LogEntrySchema as LogEntrySchema$1, LogLevelSchema as LogLevelSchema$1, MessageStatusSchema as MessageStatusSchema$1, PhaseSchema as PhaseSchema$1, PlaybookSchema as PlaybookSchema$1, ProgressSchema as ProgressSchema$1, ReasoningSchema as ReasoningSchema$1, RememberApprovalRuleRequestSchema as RememberApprovalRuleRequestSchema$1, RememberApprovalRuleResponseSchema as RememberApprovalRuleResponseSchema$1, ReportLogRequestSchema as ReportLogRequestSchema$1, ReportLogResponseSchema as ReportLogResponseSchema$1, ReportVerdictRequestSchema as ReportVerdictRequestSchema$1, ReportVerdictResponseSchema as ReportVerdictResponseSchema$1, RevokeApprovalRuleRequestSchema as RevokeApprovalRuleRequestSchema$1, RevokeApprovalRuleResponseSchema as RevokeApprovalRuleResponseSchema$1, SessionSchema as SessionSchema$1, SessionStatusSchema as SessionStatusSchema$1, SetSitePolicyRequestSchema as SetSitePolicyRequestSchema$1, SetSitePolicyResponseSchema as SetSitePolicyResponseSchema$1, SitePolicySchema as SitePolicySchema$1, StepRequestSchema as StepRequestSchema$1, StepResponseSchema as StepResponseSchema$1, StepTraceSchema as StepTraceSchema$1, StopRequestSchema as StopRequestSchema$1, StopResponseSchema as StopResponseSchema$1, StreamStepRequestSchema as StreamStepRequestSchema$1, StreamStepResponseSchema as StreamStepResponseSchema$1, TextSchema as TextSchema$1, ToolcallResultSchema as ToolcallResultSchema$1, ToolcallResultsSchema as ToolcallResultsSchema$1, ToolErrorCodeSchema as ToolErrorCodeSchema$1, ToolErrorSchema as ToolErrorSchema$1, UpdatePlaybookRequestSchema as UpdatePlaybookRequestSchema$1, UpdatePlaybookResponseSchema as UpdatePlaybookResponseSchema$1, UsageSchema as UsageSchema$1, UserMessageSchema as UserMessageSchema$1, VerdictSchema as VerdictSchema$1 } from "./agent_pb.js";
import type { AccountSchema as AccountSchema$1, ApiTokenSchema as ApiTokenSchema$1, ConsoleService as ConsoleService$1, CreateMemoryRequestSchema as CreateMemoryRequestSchema$1, CreateMemoryResponseSchema as CreateMemoryResponseSchema$1, CreateSignInLinkRequestSchema as CreateSignInLinkRequestSchema$1, CreateSignInLinkResponseSchema as CreateSignInLinkResponseSchema$1, CreateTokenRequestSchema as CreateTokenRequestSchema$1, CreateTokenResponseSchema as CreateTokenResponseSchema$1, CreateUserRequestSchema as CreateUserRequestSchema$1, CreateUserResponseSchema as CreateUserResponseSchema$1, DecideDeviceLinkRequestSchema as DecideDeviceLinkRequestSchema$1, DecideDeviceLinkResponseSchema as DecideDeviceLinkResponseSchema$1, DeleteMemoryRequestSchema as DeleteMemoryRequestSchema$1, DeleteMemoryResponseSchema as DeleteMemoryResponseSchema$1, DeviceLinkSchema as DeviceLinkSchema$1, DeviceLinkStatusSchema as DeviceLinkStatusSchema$1, DiffLineSchema as DiffLineSchema$1, DiffOpSchema as DiffOpSchema$1, DiffPlaybookVersionsRequestSchema as DiffPlaybookVersionsRequestSchema$1, DiffPlaybookVersionsResponseSchema as DiffPlaybookVersionsResponseSchema$1, ExchangeDeviceCodeRequestSchema as ExchangeDeviceCodeRequestSchema$1, ExchangeDeviceCodeResponseSchema as ExchangeDeviceCodeResponseSchema$1, file_baton_v1_console as file_baton_v1_console$1, GetAccountRequestSchema as GetAccountRequestSchema$1, GetAccountResponseSchema as GetAccountResponseSchema$1, GetDeviceLinkRequestSchema as GetDeviceLinkRequestSchema$1, GetDeviceLinkResponseSchema as GetDeviceLinkResponseSchema$1, GetSignInLinkRequestSchema as GetSignInLinkRequestSchema$1, GetSignInLinkResponseSchema as GetSignInLinkResponseSchema$1, GetUsageRequestSchema as GetUsageRequestSchema$1, GetUsageResponseSchema as GetUsageResponseSchema$1, ListMemoriesRequestSchema as ListMemoriesRequestSchema$1, ListMemoriesResponseSchema as ListMemoriesResponseSchema$1, ListPlaybookVersionsRequestSchema as ListPlaybookVersionsRequestSchema$1, ListPlaybookVersionsResponseSchema as ListPlaybookVersionsResponseSchema$1, ListSessionsRequestSchema as ListSessionsRequestSchema$1, ListSessionsResponseSchema as ListSessionsResponseSchema$1, ListTokensRequestSchema as ListTokensRequestSchema$1, ListTokensResponseSchema as ListTokensResponseSchema$1, ListUsersRequestSchema as ListUsersRequestSchema$1, ListUsersResponseSchema as ListUsersResponseSchema$1, MatchPlaybooksRequestSchema as MatchPlaybooksRequestSchema$1, MatchPlaybooksResponseSchema as MatchPlaybooksResponseSchema$1, PinMemoryRequestSchema as PinMemoryRequestSchema$1, PinMemoryResponseSchema as PinMemoryResponseSchema$1, PlaybookMatchSchema as PlaybookMatchSchema$1, PollDeviceLinkRequestSchema as PollDeviceLinkRequestSchema$1, PollDeviceLinkResponseSchema as PollDeviceLinkResponseSchema$1, QuotaSchema as QuotaSchema$1, RenameTokenRequestSchema as RenameTokenRequestSchema$1, RenameTokenResponseSchema as RenameTokenResponseSchema$1, RevokeTokenRequestSchema as RevokeTokenRequestSchema$1, RevokeTokenResponseSchema as RevokeTokenResponseSchema$1, RollBackPlaybookRequestSchema as RollBackPlaybookRequestSchema$1, RollBackPlaybookResponseSchema as RollBackPlaybookResponseSchema$1, SetDefaultBudgetRequestSchema as SetDefaultBudgetRequestSchema$1, SetDefaultBudgetResponseSchema as SetDefaultBudgetResponseSchema$1, SetQuotaRequestSchema as SetQuotaRequestSchema$1, SetQuotaResponseSchema as SetQuotaResponseSchema$1, SignInRequestSchema as SignInRequestSchema$1, SignInResponseSchema as SignInResponseSchema$1, SignOutRequestSchema as SignOutRequestSchema$1, SignOutResponseSchema as SignOutResponseSchema$1, StartDeviceLinkRequestSchema as StartDeviceLinkRequestSchema$1, StartDeviceLinkResponseSchema as StartDeviceLinkResponseSchema$1, UsageRowSchema as UsageRowSchema$1, UserSummarySchema as UserSummarySchema$1, WatchSessionRequestSchema as WatchSessionRequestSchema$1, WatchSessionResponseSchema as WatchSessionResponseSchema$1 } from "./console_pb.js";

// @generated by protoc-gen-baton v0.1.0 with parameter "descriptors" from baton/v1/options.proto, baton/v1/tools.proto, baton/v1/agent.proto, baton/v1/console.proto
/* eslint-disable */

/**
 * A file as a literal: name, package, messages, enums, services. A message is [name, fields,
 * nested messages, nested enums, oneof names, 1 if a map entry]; a field [name, number, type,
 * type name (relative to the package when inside it), label, oneof index + 1, 1 if proto3
 * optional]; an enum [name, [value name, number, …]]; a service [name, [[method, input, output,
 * streaming: 1 client, 2 server], …]]. 0 or a missing element is unset.
 */
type Lit = [string, string, M[], E[]?, [string, [string, string, string, number?][]][]?];
type M = [string, F[], (M[] | 0)?, (E[] | 0)?, (string[] | 0)?, 1?];
type F = [string, number, number, (string | 0)?, number?, number?, 1?];
type E = [string, (string | number)[]];

/**
 * Builds a file's FileDescriptorProto from its literal and its registry with protobuf-es's `createFileRegistry`.
 */
function hydrate([name, pkg, messages, enums = [], services = []]: Lit, deps: DescFile[]): DescFile {
  const type = (t?: string | 0) => (!t ? "" : t[0] !== "." ? `.${pkg}.${t}` : t);
  const enumType = ([name, v]: E) => ({ name, value: v.flatMap((x, i) => (i % 2 ? [] : [{ name: x, number: v[i + 1] }])) });
  const field = ([name, number, t, typeName, label, oneof, opt]: F) => ({
    name, number, type: t, typeName: type(typeName), label: label || 1, jsonName: protoCamelCase(name), proto3Optional: !!opt, extendee: "",
    ...(oneof ? { oneofIndex: oneof - 1 } : {}),
  });
  const message = ([name, fields, nested, enums, oneofs, mapEntry]: M): object => ({
    name, field: fields.map(field), nestedType: (nested || []).map(message), enumType: (enums || []).map(enumType),
    oneofDecl: (oneofs || []).map((name) => ({ name })), extension: [], extensionRange: [], reservedRange: [], reservedName: [],
    ...(mapEntry ? { options: { mapEntry: true } } : {}),
  });
  const proto = {
    $typeName: "google.protobuf.FileDescriptorProto", name, package: pkg, syntax: "proto3", edition: 0,
    dependency: deps.map((d) => d.proto.name), publicDependency: [], weakDependency: [], optionDependency: [], extension: [],
    messageType: messages.map(message), enumType: enums.map(enumType),
    service: services.map(([name, methods]) => ({
      name, method: methods.map(([name, i, o, s = 0]) => ({ name, inputType: type(i), outputType: type(o), clientStreaming: !!(s & 1), serverStreaming: !!(s & 2) })),
    })),
  } as unknown as FileDescriptorProto;
  return createFileRegistry(proto, (n) => deps.find((d) => d.proto.name === n)).getFile(name)!;
}

/**
 * The descriptors of baton/v1/options.proto.
 */
export const file_baton_v1_options: typeof file_baton_v1_options$1 = /*@__PURE__*/ hydrate([
  "baton/v1/options.proto", "baton.v1", [
    ["ToolOptions",[["description",1,9],["side",2,14,"ExecutorSide"],["risk",3,14,"Risk"],["title",4,9],["navigation",5,8]]],
    ["CatalogOptions",[["results",1,9]]],
    ["FieldConstraints",[["description",1,9],["required",2,8],["minimum",3,1,0,0,1,1],["maximum",4,1,0,0,2,1],["min_length",5,13,0,0,3,1],["max_length",6,13,0,0,4,1],["max_items",7,13,0,0,5,1],["default_json",8,9],["marks_irreversible",9,8]],0,0,["_minimum","_maximum","_min_length","_max_length","_max_items"]],
    ["MethodConstraints",[["max_request_bytes",1,13],["access",2,14,"Access",3]]],
  ], [["ExecutorSide",["EXECUTOR_SIDE_UNSPECIFIED",0,"EXECUTOR_SIDE_CLIENT",1,"EXECUTOR_SIDE_BACKEND",2]],["Risk",["RISK_UNSPECIFIED",0,"RISK_READ_ONLY",1,"RISK_MUTATING",2,"RISK_IRREVERSIBLE",3]],["Access",["ACCESS_UNSPECIFIED",0,"ACCESS_BEARER",1,"ACCESS_CONSOLE",2,"ACCESS_CONSOLE_SIGN_IN",3,"ACCESS_PUBLIC",4]]], []], []);
export const ToolOptionsSchema: typeof ToolOptionsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_options, 0);
export const CatalogOptionsSchema: typeof CatalogOptionsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_options, 1);
export const FieldConstraintsSchema: typeof FieldConstraintsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_options, 2);
export const MethodConstraintsSchema: typeof MethodConstraintsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_options, 3);
export const ExecutorSideSchema: typeof ExecutorSideSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_options, 0);
export const RiskSchema: typeof RiskSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_options, 1);
export const AccessSchema: typeof AccessSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_options, 2);

/**
 * The descriptors of baton/v1/tools.proto.
 */
export const file_baton_v1_tools: typeof file_baton_v1_tools$1 = /*@__PURE__*/ hydrate([
  "baton/v1/tools.proto", "baton.v1", [
    ["ToolCall",[["navigate",1,11,"NavigateParams",0,1],["go_back",2,11,"GoBackParams",0,1],["take_snapshot",3,11,"TakeSnapshotParams",0,1],["click",4,11,"ClickParams",0,1],["type_text",5,11,"TypeTextParams",0,1],["press_keys",6,11,"PressKeysParams",0,1],["scroll",7,11,"ScrollParams",0,1],["select_option",8,11,"SelectOptionParams",0,1],["hover",9,11,"HoverParams",0,1],["drag",10,11,"DragParams",0,1],["upload_file",11,11,"UploadFileParams",0,1],["wait_for",12,11,"WaitForParams",0,1],["open_tab",13,11,"OpenTabParams",0,1],["switch_tab",14,11,"SwitchTabParams",0,1],["close_tab",15,11,"CloseTabParams",0,1],["list_tabs",16,11,"ListTabsParams",0,1],["screenshot",17,11,"ScreenshotParams",0,1],["extract",18,11,"ExtractParams",0,1],["ask_user",19,11,"AskUserParams",0,1],["done",20,11,"DoneParams",0,1],["search_user_memory",21,11,"SearchUserMemoryParams",0,1],["save_memory",22,11,"SaveMemoryParams",0,1],["set_value",23,11,"SetValueParams",0,1],["select_text",24,11,"SelectTextParams",0,1]],0,0,["tool"]],
    ["ToolResult",[["navigate",1,11,"NavigateResult",0,1],["go_back",2,11,"GoBackResult",0,1],["take_snapshot",3,11,"TakeSnapshotResult",0,1],["click",4,11,"ClickResult",0,1],["type_text",5,11,"TypeTextResult",0,1],["press_keys",6,11,"PressKeysResult",0,1],["scroll",7,11,"ScrollResult",0,1],["select_option",8,11,"SelectOptionResult",0,1],["hover",9,11,"HoverResult",0,1],["drag",10,11,"DragResult",0,1],["upload_file",11,11,"UploadFileResult",0,1],["wait_for",12,11,"WaitForResult",0,1],["open_tab",13,11,"OpenTabResult",0,1],["switch_tab",14,11,"SwitchTabResult",0,1],["close_tab",15,11,"CloseTabResult",0,1],["list_tabs",16,11,"ListTabsResult",0,1],["screenshot",17,11,"ScreenshotResult",0,1],["extract",18,11,"ExtractResult",0,1],["ask_user",19,11,"AskUserResult",0,1],["done",20,11,"DoneResult",0,1],["search_user_memory",21,11,"SearchUserMemoryResult",0,1],["save_memory",22,11,"SaveMemoryResult",0,1],["set_value",23,11,"SetValueResult",0,1],["select_text",24,11,"SelectTextResult",0,1]],0,0,["tool"]],
    ["Evidence",[["url",1,9],["title",2,9],["navigated",3,8],["dialog",4,11,"Dialog"],["focused",5,11,"ElementSummary"],["refs_added",6,9,0,3],["refs_removed",7,9,0,3],["new_tab_id",8,9],["notes",9,9,0,3],["text_added",10,9,0,3],["text_changed",11,9,0,3],["text_removed",12,9,0,3]]],
    ["ElementSummary",[["ref",1,9],["role",2,9],["name",3,9],["value",4,9]]],
    ["Dialog",[["type",1,9],["message",2,9],["accepted",3,8]]],
    ["Viewport",[["width",1,13],["height",2,13],["scroll_x",3,1],["scroll_y",4,1],["page_width",5,1],["page_height",6,1]]],
    ["Image",[["mime_type",1,9],["data",2,12],["url",3,9],["width",4,13],["height",5,13]]],
    ["Tab",[["tab_id",1,9],["url",2,9],["title",3,9],["active",4,8]]],
    ["Link",[["text",1,9],["url",2,9],["ref",3,9]]],
    ["MemoryRecord",[["id",1,9],["text",2,9],["tags",3,9,0,3],["created_at",4,11,".google.protobuf.Timestamp"],["score",5,1],["session_id",6,9],["page_url",7,9],["by_user",8,8],["pinned",9,8]]],
    ["NavigateParams",[["url",1,9]]],
    ["NavigateResult",[["url",1,9],["title",2,9],["http_status",3,13],["evidence",4,11,"Evidence"]]],
    ["GoBackParams",[]],
    ["GoBackResult",[["url",1,9],["title",2,9],["moved",3,8],["evidence",4,11,"Evidence"]]],
    ["TakeSnapshotParams",[["offset",1,13],["max_chars",2,13,0,0,1,1],["include_screenshot",3,8],["include_offscreen",4,8],["ref",5,9],["full",6,8]],0,0,["_max_chars"]],
    ["TakeSnapshotResult",[["url",1,9],["title",2,9],["text",3,9],["ref_count",4,13],["total_ref_count",5,13],["next_offset",6,13,0,0,1,1],["page_overflow",7,8],["viewport",8,11,"Viewport"],["screenshot",9,11,"Image"],["frame_count",10,13],["snapshot_id",11,13],["diff_base",12,13]],0,0,["_next_offset"]],
    ["ScreenshotParams",[["ref",1,9],["full_page",2,8],["label_refs",3,8],["quality",4,13,0,0,1,1]],0,0,["_quality"]],
    ["ScreenshotResult",[["image",1,11,"Image"],["viewport",2,11,"Viewport"]]],
    ["ExtractParams",[["ref",1,9],["format",2,14,"ExtractFormat"],["max_chars",3,13,0,0,1,1],["offset",4,13]],0,0,["_max_chars"]],
    ["ExtractResult",[["url",1,9],["title",2,9],["content",3,9],["next_offset",4,13,0,0,1,1],["links",5,11,"Link",3]],0,0,["_next_offset"]],
    ["ClickParams",[["ref",1,9],["x",2,1,0,0,1,1],["y",3,1,0,0,2,1],["button",4,14,"MouseButton"],["click_count",5,13,0,0,3,1],["modifiers",6,14,"KeyModifier",3],["irreversible",7,8]],0,0,["_x","_y","_click_count"]],
    ["ClickResult",[["evidence",1,11,"Evidence"]]],
    ["TypeTextParams",[["ref",1,9],["text",2,9],["clear",3,8,0,0,1,1],["press_enter",4,8],["wait_for_suggestion",5,8],["irreversible",6,8]],0,0,["_clear"]],
    ["TypeTextResult",[["value",1,9],["suggestions",2,9,0,3],["evidence",3,11,"Evidence"]]],
    ["PressKeysParams",[["keys",1,9,0,3],["ref",2,9],["irreversible",3,8]]],
    ["PressKeysResult",[["evidence",1,11,"Evidence"]]],
    ["ScrollParams",[["direction",1,14,"ScrollDirection"],["pixels",2,13,0,0,1,1],["ref",3,9],["to_ref",4,9],["to_edge",5,8]],0,0,["_pixels"]],
    ["ScrollResult",[["moved",1,8],["viewport",2,11,"Viewport"],["evidence",3,11,"Evidence"]]],
    ["SelectOptionParams",[["ref",1,9],["values",2,9,0,3]]],
    ["SelectOptionResult",[["selected",1,9,0,3],["evidence",2,11,"Evidence"]]],
    ["SetValueParams",[["ref",1,9],["value",2,9]]],
    ["SetValueResult",[["value",1,9],["evidence",2,11,"Evidence"]]],
    ["SelectTextParams",[["ref",1,9],["text",2,9],["occurrence",3,13,0,0,1,1]],0,0,["_occurrence"]],
    ["SelectTextResult",[["selected",1,9],["evidence",2,11,"Evidence"]]],
    ["HoverParams",[["ref",1,9]]],
    ["HoverResult",[["evidence",1,11,"Evidence"]]],
    ["DragParams",[["from_ref",1,9],["to_ref",2,9]]],
    ["DragResult",[["evidence",1,11,"Evidence"]]],
    ["UploadFileParams",[["ref",1,9],["paths",2,9,0,3]]],
    ["UploadFileResult",[["files",1,9,0,3],["evidence",2,11,"Evidence"]]],
    ["WaitForParams",[["text",1,9],["text_gone",2,9],["ref",3,9],["url",4,9],["ms",5,13,0,0,1,1],["timeout_ms",6,13,0,0,2,1]],0,0,["_ms","_timeout_ms"]],
    ["WaitForResult",[["satisfied",1,8],["waited_ms",2,13],["evidence",3,11,"Evidence"]]],
    ["OpenTabParams",[["url",1,9]]],
    ["OpenTabResult",[["tab",1,11,"Tab"]]],
    ["SwitchTabParams",[["tab_id",1,9]]],
    ["SwitchTabResult",[["tab",1,11,"Tab"]]],
    ["CloseTabParams",[["tab_id",1,9]]],
    ["CloseTabResult",[["tabs",1,11,"Tab",3],["active_tab_id",2,9]]],
    ["ListTabsParams",[]],
    ["ListTabsResult",[["tabs",1,11,"Tab",3],["active_tab_id",2,9]]],
    ["AskUserParams",[["question",1,9],["choices",2,9,0,3]]],
    ["AskUserResult",[["answer",1,9]]],
    ["DoneParams",[["answer",1,9],["success",2,8,0,0,1,1]],0,0,["_success"]],
    ["DoneResult",[["completed",1,8]]],
    ["SearchUserMemoryParams",[["query",1,9],["limit",2,13,0,0,1,1]],0,0,["_limit"]],
    ["SearchUserMemoryResult",[["records",1,11,"MemoryRecord",3]]],
    ["SaveMemoryParams",[["text",1,9],["tags",2,9,0,3]]],
    ["SaveMemoryResult",[["id",1,9]]],
  ], [["MouseButton",["MOUSE_BUTTON_UNSPECIFIED",0,"MOUSE_BUTTON_LEFT",1,"MOUSE_BUTTON_RIGHT",2,"MOUSE_BUTTON_MIDDLE",3]],["KeyModifier",["KEY_MODIFIER_UNSPECIFIED",0,"KEY_MODIFIER_ALT",1,"KEY_MODIFIER_CONTROL",2,"KEY_MODIFIER_META",3,"KEY_MODIFIER_SHIFT",4]],["ScrollDirection",["SCROLL_DIRECTION_UNSPECIFIED",0,"SCROLL_DIRECTION_UP",1,"SCROLL_DIRECTION_DOWN",2,"SCROLL_DIRECTION_LEFT",3,"SCROLL_DIRECTION_RIGHT",4]],["ExtractFormat",["EXTRACT_FORMAT_UNSPECIFIED",0,"EXTRACT_FORMAT_MARKDOWN",1,"EXTRACT_FORMAT_TEXT",2,"EXTRACT_FORMAT_LINKS",3]]], []], [file_google_protobuf_timestamp]);
export const ToolCallSchema: typeof ToolCallSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 0);
export const ToolResultSchema: typeof ToolResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 1);
export const EvidenceSchema: typeof EvidenceSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 2);
export const ElementSummarySchema: typeof ElementSummarySchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 3);
export const DialogSchema: typeof DialogSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 4);
export const ViewportSchema: typeof ViewportSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 5);
export const ImageSchema: typeof ImageSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 6);
export const TabSchema: typeof TabSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 7);
export const LinkSchema: typeof LinkSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 8);
export const MemoryRecordSchema: typeof MemoryRecordSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 9);
export const NavigateParamsSchema: typeof NavigateParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 10);
export const NavigateResultSchema: typeof NavigateResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 11);
export const GoBackParamsSchema: typeof GoBackParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 12);
export const GoBackResultSchema: typeof GoBackResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 13);
export const TakeSnapshotParamsSchema: typeof TakeSnapshotParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 14);
export const TakeSnapshotResultSchema: typeof TakeSnapshotResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 15);
export const ScreenshotParamsSchema: typeof ScreenshotParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 16);
export const ScreenshotResultSchema: typeof ScreenshotResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 17);
export const ExtractParamsSchema: typeof ExtractParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 18);
export const ExtractResultSchema: typeof ExtractResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 19);
export const ClickParamsSchema: typeof ClickParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 20);
export const ClickResultSchema: typeof ClickResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 21);
export const TypeTextParamsSchema: typeof TypeTextParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 22);
export const TypeTextResultSchema: typeof TypeTextResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 23);
export const PressKeysParamsSchema: typeof PressKeysParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 24);
export const PressKeysResultSchema: typeof PressKeysResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 25);
export const ScrollParamsSchema: typeof ScrollParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 26);
export const ScrollResultSchema: typeof ScrollResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 27);
export const SelectOptionParamsSchema: typeof SelectOptionParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 28);
export const SelectOptionResultSchema: typeof SelectOptionResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 29);
export const SetValueParamsSchema: typeof SetValueParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 30);
export const SetValueResultSchema: typeof SetValueResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 31);
export const SelectTextParamsSchema: typeof SelectTextParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 32);
export const SelectTextResultSchema: typeof SelectTextResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 33);
export const HoverParamsSchema: typeof HoverParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 34);
export const HoverResultSchema: typeof HoverResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 35);
export const DragParamsSchema: typeof DragParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 36);
export const DragResultSchema: typeof DragResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 37);
export const UploadFileParamsSchema: typeof UploadFileParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 38);
export const UploadFileResultSchema: typeof UploadFileResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 39);
export const WaitForParamsSchema: typeof WaitForParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 40);
export const WaitForResultSchema: typeof WaitForResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 41);
export const OpenTabParamsSchema: typeof OpenTabParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 42);
export const OpenTabResultSchema: typeof OpenTabResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 43);
export const SwitchTabParamsSchema: typeof SwitchTabParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 44);
export const SwitchTabResultSchema: typeof SwitchTabResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 45);
export const CloseTabParamsSchema: typeof CloseTabParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 46);
export const CloseTabResultSchema: typeof CloseTabResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 47);
export const ListTabsParamsSchema: typeof ListTabsParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 48);
export const ListTabsResultSchema: typeof ListTabsResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 49);
export const AskUserParamsSchema: typeof AskUserParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 50);
export const AskUserResultSchema: typeof AskUserResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 51);
export const DoneParamsSchema: typeof DoneParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 52);
export const DoneResultSchema: typeof DoneResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 53);
export const SearchUserMemoryParamsSchema: typeof SearchUserMemoryParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 54);
export const SearchUserMemoryResultSchema: typeof SearchUserMemoryResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 55);
export const SaveMemoryParamsSchema: typeof SaveMemoryParamsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 56);
export const SaveMemoryResultSchema: typeof SaveMemoryResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_tools, 57);
export const MouseButtonSchema: typeof MouseButtonSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_tools, 0);
export const KeyModifierSchema: typeof KeyModifierSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_tools, 1);
export const ScrollDirectionSchema: typeof ScrollDirectionSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_tools, 2);
export const ExtractFormatSchema: typeof ExtractFormatSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_tools, 3);

/**
 * The descriptors of baton/v1/agent.proto.
 */
export const file_baton_v1_agent: typeof file_baton_v1_agent$1 = /*@__PURE__*/ hydrate([
  "baton/v1/agent.proto", "baton.v1", [
    ["AgentMessage",[["id",1,9],["text",2,11,"Text",0,1],["reasoning",3,11,"Reasoning",0,1],["function_call",4,11,"FunctionCall",0,1],["status",5,14,"MessageStatus"],["step",6,13],["created_at",7,11,".google.protobuf.Timestamp"]],0,0,["content"]],
    ["Text",[["text",1,9]]],
    ["Reasoning",[["text",1,9]]],
    ["FunctionCall",[["toolcall_id",1,9],["call",2,11,"ToolCall"],["extension",3,11,"ExtensionCall"],["site",4,9],["risk",5,14,"Risk"]]],
    ["ExtensionCall",[["name",1,9],["arguments_json",2,9]]],
    ["ExtensionResult",[["result_json",1,9]]],
    ["ClientTool",[["name",1,9],["description",2,9],["parameters_json",3,9],["risk",4,14,"Risk"]]],
    ["ToolcallResult",[["toolcall_id",1,9],["result",2,11,"ToolResult",0,1],["error",3,11,"ToolError",0,1],["approval",4,11,"Approval",0,1],["extension_result",5,11,"ExtensionResult",0,1]],0,0,["outcome"]],
    ["Approval",[["approved",1,8],["reason",2,9],["scope",3,14,"ApprovalScope"],["expires_at",4,11,".google.protobuf.Timestamp"]]],
    ["ApprovalRule",[["id",1,9],["site",2,9],["risk",3,14,"Risk"],["allow",4,8],["tool",5,9],["created_at",6,11,".google.protobuf.Timestamp"],["expires_at",7,11,".google.protobuf.Timestamp"]]],
    ["ToolError",[["code",1,14,"ToolErrorCode"],["message",2,9],["tool",3,9],["field",4,9],["snapshot",5,11,"TakeSnapshotResult"]]],
    ["Usage",[["input_tokens",1,4],["output_tokens",2,4],["cached_tokens",3,4],["cost_usd",4,1]]],
    ["Budget",[["tokens",1,4],["cost_usd",2,1],["seconds",3,13]]],
    ["Session",[["id",1,9],["status",2,14,"SessionStatus"],["task",3,9],["goal",4,9],["model",5,9],["step",6,13],["max_steps",7,13],["usage",8,11,"Usage"],["playbook",9,9],["created_at",10,11,".google.protobuf.Timestamp"],["updated_at",11,11,".google.protobuf.Timestamp"],["answer",12,9],["reason",13,9],["verdict",14,11,"Verdict"],["budget",15,11,"Budget"]]],
    ["Verdict",[["passed",1,8],["reason",2,9]]],
    ["CreateSessionRequest",[["task",1,9],["model",2,9],["playbook",3,9],["max_steps",4,13],["idempotency_key",5,9],["client_tools",6,11,"ClientTool",3],["budget",7,11,"Budget"]]],
    ["CreateSessionResponse",[["session",1,11,"Session"]]],
    ["ToolcallResults",[["results",1,11,"ToolcallResult",3]]],
    ["UserMessage",[["text",1,9]]],
    ["StepRequest",[["session_id",1,9],["user_message",2,11,"UserMessage",0,1],["tool_results",3,11,"ToolcallResults",0,1],["idempotency_key",4,9],["page_url",5,9]],0,0,["input"]],
    ["StepResponse",[["messages",1,11,"AgentMessage",3],["session",2,11,"Session"]]],
    ["StreamStepRequest",[["step",1,11,"StepRequest"]]],
    ["Progress",[["phase",1,14,"Phase"],["tool",2,9],["detail",3,9],["attempt",4,13]]],
    ["StreamStepResponse",[["progress",1,11,"Progress",0,1],["text_delta",2,9,0,0,1],["done",3,11,"StepResponse",0,1],["reasoning_delta",4,9,0,0,1]],0,0,["event"]],
    ["StopRequest",[["session_id",1,9],["reason",2,9]]],
    ["StopResponse",[["session",1,11,"Session"]]],
    ["HistoryEntry",[["step",1,13],["user_message",2,11,"UserMessage",0,1],["agent_message",3,11,"AgentMessage",0,1],["tool_result",4,11,"ToolcallResult",0,1]],0,0,["entry"]],
    ["StepTrace",[["step",1,13],["model",2,9],["latency_ms",3,13],["usage",4,11,"Usage"],["tool_calls",5,9,0,3],["errors",6,9,0,3],["screenshots",7,9,0,3]]],
    ["GetSessionRequest",[["session_id",1,9]]],
    ["GetSessionResponse",[["session",1,11,"Session"],["history",2,11,"HistoryEntry",3],["pending_calls",3,11,"AgentMessage",3],["traces",4,11,"StepTrace",3],["logs",5,11,"LogEntry",3]]],
    ["LogEntry",[["level",1,14,"LogLevel"],["message",2,9],["step",3,13],["tool",4,9],["toolcall_id",5,9],["time",6,11,".google.protobuf.Timestamp"],["attributes",7,11,"LogEntry.AttributesEntry",3]],[["AttributesEntry",[["key",1,9],["value",2,9]],0,0,0,1]]],
    ["ReportLogRequest",[["session_id",1,9],["entries",2,11,"LogEntry",3]]],
    ["ReportLogResponse",[["stored",1,13]]],
    ["GetScreenshotRequest",[["session_id",1,9],["screenshot_id",2,9]]],
    ["ReportVerdictRequest",[["session_id",1,9],["verdict",2,11,"Verdict"]]],
    ["ReportVerdictResponse",[["session",1,11,"Session"]]],
    ["GetScreenshotResponse",[["image",1,11,"Image"],["step",2,13],["toolcall_id",3,9]]],
    ["DecideApprovalRequest",[["session_id",1,9],["toolcall_id",2,9],["approval",3,11,"Approval"]]],
    ["DecideApprovalResponse",[["session",1,11,"Session"]]],
    ["ListApprovalRulesRequest",[]],
    ["ListApprovalRulesResponse",[["rules",1,11,"ApprovalRule",3]]],
    ["RevokeApprovalRuleRequest",[["id",1,9]]],
    ["RevokeApprovalRuleResponse",[]],
    ["RememberApprovalRuleRequest",[["site",1,9],["risk",2,14,"Risk"],["allow",3,8],["tool",4,9],["expires_at",5,11,".google.protobuf.Timestamp"]]],
    ["RememberApprovalRuleResponse",[["rule",1,11,"ApprovalRule"]]],
    ["SitePolicy",[["allowed",1,9,0,3],["blocked",2,9,0,3],["read_only",3,9,0,3]]],
    ["GetSitePolicyRequest",[]],
    ["GetSitePolicyResponse",[["team",1,11,"SitePolicy"],["user",2,11,"SitePolicy"],["effective",3,11,"SitePolicy"],["can_edit_team",4,8]]],
    ["SetSitePolicyRequest",[["policy",1,11,"SitePolicy"],["team",2,8]]],
    ["SetSitePolicyResponse",[["policies",1,11,"GetSitePolicyResponse"]]],
    ["Playbook",[["name",1,9],["version",2,13],["description",3,9],["instructions",4,9],["keywords",5,9,0,3],["url_patterns",6,9,0,3],["created_at",7,11,".google.protobuf.Timestamp"]]],
    ["CreatePlaybookRequest",[["playbook",1,11,"Playbook"]]],
    ["CreatePlaybookResponse",[["playbook",1,11,"Playbook"]]],
    ["UpdatePlaybookRequest",[["playbook",1,11,"Playbook"]]],
    ["UpdatePlaybookResponse",[["playbook",1,11,"Playbook"]]],
    ["GetPlaybookRequest",[["name",1,9],["version",2,13]]],
    ["GetPlaybookResponse",[["playbook",1,11,"Playbook"]]],
    ["ListPlaybooksRequest",[]],
    ["ListPlaybooksResponse",[["playbooks",1,11,"Playbook",3]]],
  ], [["MessageStatus",["MESSAGE_STATUS_UNSPECIFIED",0,"MESSAGE_STATUS_COMPLETED",1,"MESSAGE_STATUS_STOPPED",2,"MESSAGE_STATUS_AWAITING_APPROVAL",3,"MESSAGE_STATUS_IN_PROGRESS",4]],["ApprovalScope",["APPROVAL_SCOPE_UNSPECIFIED",0,"APPROVAL_SCOPE_ONCE",1,"APPROVAL_SCOPE_SITE",2]],["ToolErrorCode",["TOOL_ERROR_CODE_UNSPECIFIED",0,"TOOL_ERROR_CODE_INVALID_ARGUMENTS",1,"TOOL_ERROR_CODE_UNKNOWN_TOOL",2,"TOOL_ERROR_CODE_UNKNOWN_REF",3,"TOOL_ERROR_CODE_STALE_REF",4,"TOOL_ERROR_CODE_NOT_ACTIONABLE",5,"TOOL_ERROR_CODE_NAVIGATED",6,"TOOL_ERROR_CODE_TIMEOUT",7,"TOOL_ERROR_CODE_TARGET_GONE",8,"TOOL_ERROR_CODE_NOT_FOUND",9,"TOOL_ERROR_CODE_PERMISSION_DENIED",10,"TOOL_ERROR_CODE_DENIED",11,"TOOL_ERROR_CODE_STOPPED",12,"TOOL_ERROR_CODE_INTERNAL",13,"TOOL_ERROR_CODE_INTERRUPTED",14,"TOOL_ERROR_CODE_NOT_RUN",15]],["SessionStatus",["SESSION_STATUS_UNSPECIFIED",0,"SESSION_STATUS_IDLE",1,"SESSION_STATUS_RUNNING",2,"SESSION_STATUS_AWAITING_TOOLS",3,"SESSION_STATUS_AWAITING_APPROVAL",4,"SESSION_STATUS_COMPLETED",5,"SESSION_STATUS_STOPPED",6,"SESSION_STATUS_FAILED",7,"SESSION_STATUS_BUDGET_EXHAUSTED",8]],["Phase",["PHASE_UNSPECIFIED",0,"PHASE_THINKING",1,"PHASE_TAKING_ACTION",2,"PHASE_IDLE",3]],["LogLevel",["LOG_LEVEL_UNSPECIFIED",0,"LOG_LEVEL_DEBUG",1,"LOG_LEVEL_INFO",2,"LOG_LEVEL_WARN",3,"LOG_LEVEL_ERROR",4]]], [["AgentService",[["CreateSession","CreateSessionRequest","CreateSessionResponse"],["Step","StepRequest","StepResponse"],["StreamStep","StreamStepRequest","StreamStepResponse",2],["Stop","StopRequest","StopResponse"],["GetSession","GetSessionRequest","GetSessionResponse"],["ReportLog","ReportLogRequest","ReportLogResponse"],["CreatePlaybook","CreatePlaybookRequest","CreatePlaybookResponse"],["UpdatePlaybook","UpdatePlaybookRequest","UpdatePlaybookResponse"],["GetPlaybook","GetPlaybookRequest","GetPlaybookResponse"],["ListPlaybooks","ListPlaybooksRequest","ListPlaybooksResponse"],["GetScreenshot","GetScreenshotRequest","GetScreenshotResponse"],["ReportVerdict","ReportVerdictRequest","ReportVerdictResponse"],["DecideApproval","DecideApprovalRequest","DecideApprovalResponse"],["ListApprovalRules","ListApprovalRulesRequest","ListApprovalRulesResponse"],["RevokeApprovalRule","RevokeApprovalRuleRequest","RevokeApprovalRuleResponse"],["RememberApprovalRule","RememberApprovalRuleRequest","RememberApprovalRuleResponse"],["GetSitePolicy","GetSitePolicyRequest","GetSitePolicyResponse"],["SetSitePolicy","SetSitePolicyRequest","SetSitePolicyResponse"]]]]], [file_baton_v1_options, file_baton_v1_tools, file_google_protobuf_timestamp]);
export const AgentMessageSchema: typeof AgentMessageSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 0);
export const TextSchema: typeof TextSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 1);
export const ReasoningSchema: typeof ReasoningSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 2);
export const FunctionCallSchema: typeof FunctionCallSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 3);
export const ExtensionCallSchema: typeof ExtensionCallSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 4);
export const ExtensionResultSchema: typeof ExtensionResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 5);
export const ClientToolSchema: typeof ClientToolSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 6);
export const ToolcallResultSchema: typeof ToolcallResultSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 7);
export const ApprovalSchema: typeof ApprovalSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 8);
export const ApprovalRuleSchema: typeof ApprovalRuleSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 9);
export const ToolErrorSchema: typeof ToolErrorSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 10);
export const UsageSchema: typeof UsageSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 11);
export const BudgetSchema: typeof BudgetSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 12);
export const SessionSchema: typeof SessionSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 13);
export const VerdictSchema: typeof VerdictSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 14);
export const CreateSessionRequestSchema: typeof CreateSessionRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 15);
export const CreateSessionResponseSchema: typeof CreateSessionResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 16);
export const ToolcallResultsSchema: typeof ToolcallResultsSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 17);
export const UserMessageSchema: typeof UserMessageSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 18);
export const StepRequestSchema: typeof StepRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 19);
export const StepResponseSchema: typeof StepResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 20);
export const StreamStepRequestSchema: typeof StreamStepRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 21);
export const ProgressSchema: typeof ProgressSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 22);
export const StreamStepResponseSchema: typeof StreamStepResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 23);
export const StopRequestSchema: typeof StopRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 24);
export const StopResponseSchema: typeof StopResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 25);
export const HistoryEntrySchema: typeof HistoryEntrySchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 26);
export const StepTraceSchema: typeof StepTraceSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 27);
export const GetSessionRequestSchema: typeof GetSessionRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 28);
export const GetSessionResponseSchema: typeof GetSessionResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 29);
export const LogEntrySchema: typeof LogEntrySchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 30);
export const ReportLogRequestSchema: typeof ReportLogRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 31);
export const ReportLogResponseSchema: typeof ReportLogResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 32);
export const GetScreenshotRequestSchema: typeof GetScreenshotRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 33);
export const ReportVerdictRequestSchema: typeof ReportVerdictRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 34);
export const ReportVerdictResponseSchema: typeof ReportVerdictResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 35);
export const GetScreenshotResponseSchema: typeof GetScreenshotResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 36);
export const DecideApprovalRequestSchema: typeof DecideApprovalRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 37);
export const DecideApprovalResponseSchema: typeof DecideApprovalResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 38);
export const ListApprovalRulesRequestSchema: typeof ListApprovalRulesRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 39);
export const ListApprovalRulesResponseSchema: typeof ListApprovalRulesResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 40);
export const RevokeApprovalRuleRequestSchema: typeof RevokeApprovalRuleRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 41);
export const RevokeApprovalRuleResponseSchema: typeof RevokeApprovalRuleResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 42);
export const RememberApprovalRuleRequestSchema: typeof RememberApprovalRuleRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 43);
export const RememberApprovalRuleResponseSchema: typeof RememberApprovalRuleResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 44);
export const SitePolicySchema: typeof SitePolicySchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 45);
export const GetSitePolicyRequestSchema: typeof GetSitePolicyRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 46);
export const GetSitePolicyResponseSchema: typeof GetSitePolicyResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 47);
export const SetSitePolicyRequestSchema: typeof SetSitePolicyRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 48);
export const SetSitePolicyResponseSchema: typeof SetSitePolicyResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 49);
export const PlaybookSchema: typeof PlaybookSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 50);
export const CreatePlaybookRequestSchema: typeof CreatePlaybookRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 51);
export const CreatePlaybookResponseSchema: typeof CreatePlaybookResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 52);
export const UpdatePlaybookRequestSchema: typeof UpdatePlaybookRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 53);
export const UpdatePlaybookResponseSchema: typeof UpdatePlaybookResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 54);
export const GetPlaybookRequestSchema: typeof GetPlaybookRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 55);
export const GetPlaybookResponseSchema: typeof GetPlaybookResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 56);
export const ListPlaybooksRequestSchema: typeof ListPlaybooksRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 57);
export const ListPlaybooksResponseSchema: typeof ListPlaybooksResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_agent, 58);
export const MessageStatusSchema: typeof MessageStatusSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 0);
export const ApprovalScopeSchema: typeof ApprovalScopeSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 1);
export const ToolErrorCodeSchema: typeof ToolErrorCodeSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 2);
export const SessionStatusSchema: typeof SessionStatusSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 3);
export const PhaseSchema: typeof PhaseSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 4);
export const LogLevelSchema: typeof LogLevelSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_agent, 5);
export const AgentService: typeof AgentService$1 = /*@__PURE__*/ serviceDesc(file_baton_v1_agent, 0);

/**
 * The descriptors of baton/v1/console.proto.
 */
export const file_baton_v1_console: typeof file_baton_v1_console$1 = /*@__PURE__*/ hydrate([
  "baton/v1/console.proto", "baton.v1", [
    ["Account",[["user_id",1,9],["name",2,9],["admin",3,8],["created_at",4,11,".google.protobuf.Timestamp"]]],
    ["Quota",[["daily_cost_usd",1,1],["daily_steps",2,13]]],
    ["GetSignInLinkRequest",[["code",1,9]]],
    ["GetSignInLinkResponse",[["account",1,11,"Account"],["expires_at",2,11,".google.protobuf.Timestamp"]]],
    ["SignInRequest",[["code",1,9]]],
    ["SignInResponse",[["account",1,11,"Account"]]],
    ["SignOutRequest",[]],
    ["SignOutResponse",[]],
    ["GetAccountRequest",[]],
    ["GetAccountResponse",[["account",1,11,"Account"],["quota",2,11,"Quota"],["default_budget",3,11,"Budget"]]],
    ["SetDefaultBudgetRequest",[["budget",1,11,"Budget"]]],
    ["SetDefaultBudgetResponse",[["budget",1,11,"Budget"]]],
    ["DeviceLink",[["link_id",1,9],["device_name",2,9],["client",3,9],["user_code",4,9],["status",5,14,"DeviceLinkStatus"],["origin",6,9],["created_at",7,11,".google.protobuf.Timestamp"],["expires_at",8,11,".google.protobuf.Timestamp"]]],
    ["StartDeviceLinkRequest",[["code_challenge",1,9],["code_challenge_method",2,9],["device_name",3,9],["client",4,9]]],
    ["StartDeviceLinkResponse",[["link_id",1,9],["user_code",2,9],["approve_url",3,9],["expires_at",4,11,".google.protobuf.Timestamp"],["poll_interval_ms",5,13]]],
    ["PollDeviceLinkRequest",[["link_id",1,9]]],
    ["PollDeviceLinkResponse",[["status",1,14,"DeviceLinkStatus"],["code",2,9]]],
    ["ExchangeDeviceCodeRequest",[["code",1,9],["code_verifier",2,9]]],
    ["ExchangeDeviceCodeResponse",[["token",1,9],["info",2,11,"ApiToken"],["account",3,11,"Account"]]],
    ["GetDeviceLinkRequest",[["link_id",1,9]]],
    ["GetDeviceLinkResponse",[["link",1,11,"DeviceLink"]]],
    ["DecideDeviceLinkRequest",[["link_id",1,9],["approve",2,8],["token_name",3,9]]],
    ["DecideDeviceLinkResponse",[["link",1,11,"DeviceLink"]]],
    ["ApiToken",[["id",1,9],["name",2,9],["device",3,9],["source",4,9],["created_at",5,11,".google.protobuf.Timestamp"],["last_used_at",6,11,".google.protobuf.Timestamp"],["revoked_at",7,11,".google.protobuf.Timestamp"]]],
    ["ListTokensRequest",[]],
    ["ListTokensResponse",[["tokens",1,11,"ApiToken",3]]],
    ["CreateTokenRequest",[["name",1,9]]],
    ["CreateTokenResponse",[["token",1,9],["info",2,11,"ApiToken"]]],
    ["RenameTokenRequest",[["token_id",1,9],["name",2,9]]],
    ["RenameTokenResponse",[["token",1,11,"ApiToken"]]],
    ["RevokeTokenRequest",[["token_id",1,9]]],
    ["RevokeTokenResponse",[["token",1,11,"ApiToken"]]],
    ["ListSessionsRequest",[["statuses",1,14,"SessionStatus",3],["query",2,9],["model",3,9],["limit",4,13],["page_token",5,9]]],
    ["ListSessionsResponse",[["sessions",1,11,"Session",3],["next_page_token",2,9],["models",3,9,0,3]]],
    ["WatchSessionRequest",[["session_id",1,9]]],
    ["WatchSessionResponse",[["session",1,11,"Session"],["history",2,11,"HistoryEntry",3],["traces",3,11,"StepTrace",3],["pending_calls",4,11,"AgentMessage",3],["logs",5,11,"LogEntry",3],["progress",6,11,"Progress"],["text_delta",7,9]]],
    ["ListPlaybookVersionsRequest",[["name",1,9]]],
    ["ListPlaybookVersionsResponse",[["versions",1,11,"Playbook",3]]],
    ["DiffLine",[["op",1,14,"DiffOp"],["text",2,9]]],
    ["DiffPlaybookVersionsRequest",[["name",1,9],["from_version",2,13],["to_version",3,13]]],
    ["DiffPlaybookVersionsResponse",[["lines",1,11,"DiffLine",3],["added",2,13],["removed",3,13]]],
    ["RollBackPlaybookRequest",[["name",1,9],["version",2,13]]],
    ["RollBackPlaybookResponse",[["playbook",1,11,"Playbook"]]],
    ["PlaybookMatch",[["name",1,9],["version",2,13],["keywords",3,9,0,3],["url_patterns",4,9,0,3],["score",5,13]]],
    ["MatchPlaybooksRequest",[["task",1,9],["url",2,9]]],
    ["MatchPlaybooksResponse",[["chosen",1,9],["matches",2,11,"PlaybookMatch",3]]],
    ["ListMemoriesRequest",[["query",1,9],["limit",2,13]]],
    ["ListMemoriesResponse",[["records",1,11,"MemoryRecord",3]]],
    ["DeleteMemoryRequest",[["memory_id",1,9]]],
    ["DeleteMemoryResponse",[]],
    ["PinMemoryRequest",[["memory_id",1,9],["pinned",2,8]]],
    ["PinMemoryResponse",[["record",1,11,"MemoryRecord"]]],
    ["CreateMemoryRequest",[["text",1,9],["tags",2,9,0,3]]],
    ["CreateMemoryResponse",[["record",1,11,"MemoryRecord"]]],
    ["UsageRow",[["day",1,9],["model",2,9],["steps",3,13],["input_tokens",4,4],["output_tokens",5,4],["cost_usd",6,1]]],
    ["GetUsageRequest",[["days",1,13]]],
    ["GetUsageResponse",[["rows",1,11,"UsageRow",3],["quota",2,11,"Quota"],["steps_today",3,13],["cost_today_usd",4,1],["resets_at",5,11,".google.protobuf.Timestamp"]]],
    ["UserSummary",[["account",1,11,"Account"],["quota",2,11,"Quota"],["steps_today",3,13],["cost_today_usd",4,1]]],
    ["ListUsersRequest",[]],
    ["ListUsersResponse",[["users",1,11,"UserSummary",3]]],
    ["CreateUserRequest",[["user_id",1,9],["name",2,9],["admin",3,8]]],
    ["CreateUserResponse",[["account",1,11,"Account"],["sign_in_url",2,9]]],
    ["CreateSignInLinkRequest",[["user_id",1,9]]],
    ["CreateSignInLinkResponse",[["sign_in_url",1,9],["expires_at",2,11,".google.protobuf.Timestamp"]]],
    ["SetQuotaRequest",[["user_id",1,9],["quota",2,11,"Quota"]]],
    ["SetQuotaResponse",[["quota",1,11,"Quota"]]],
  ], [["DeviceLinkStatus",["DEVICE_LINK_STATUS_UNSPECIFIED",0,"DEVICE_LINK_STATUS_PENDING",1,"DEVICE_LINK_STATUS_APPROVED",2,"DEVICE_LINK_STATUS_DENIED",3,"DEVICE_LINK_STATUS_EXPIRED",4,"DEVICE_LINK_STATUS_EXCHANGED",5]],["DiffOp",["DIFF_OP_UNSPECIFIED",0,"DIFF_OP_SAME",1,"DIFF_OP_ADDED",2,"DIFF_OP_REMOVED",3]]], [["ConsoleService",[["GetSignInLink","GetSignInLinkRequest","GetSignInLinkResponse"],["SignIn","SignInRequest","SignInResponse"],["SignOut","SignOutRequest","SignOutResponse"],["GetAccount","GetAccountRequest","GetAccountResponse"],["StartDeviceLink","StartDeviceLinkRequest","StartDeviceLinkResponse"],["PollDeviceLink","PollDeviceLinkRequest","PollDeviceLinkResponse"],["ExchangeDeviceCode","ExchangeDeviceCodeRequest","ExchangeDeviceCodeResponse"],["GetDeviceLink","GetDeviceLinkRequest","GetDeviceLinkResponse"],["DecideDeviceLink","DecideDeviceLinkRequest","DecideDeviceLinkResponse"],["ListTokens","ListTokensRequest","ListTokensResponse"],["CreateToken","CreateTokenRequest","CreateTokenResponse"],["RenameToken","RenameTokenRequest","RenameTokenResponse"],["RevokeToken","RevokeTokenRequest","RevokeTokenResponse"],["ListSessions","ListSessionsRequest","ListSessionsResponse"],["WatchSession","WatchSessionRequest","WatchSessionResponse",2],["ListPlaybookVersions","ListPlaybookVersionsRequest","ListPlaybookVersionsResponse"],["DiffPlaybookVersions","DiffPlaybookVersionsRequest","DiffPlaybookVersionsResponse"],["RollBackPlaybook","RollBackPlaybookRequest","RollBackPlaybookResponse"],["MatchPlaybooks","MatchPlaybooksRequest","MatchPlaybooksResponse"],["ListMemories","ListMemoriesRequest","ListMemoriesResponse"],["DeleteMemory","DeleteMemoryRequest","DeleteMemoryResponse"],["PinMemory","PinMemoryRequest","PinMemoryResponse"],["CreateMemory","CreateMemoryRequest","CreateMemoryResponse"],["GetUsage","GetUsageRequest","GetUsageResponse"],["ListUsers","ListUsersRequest","ListUsersResponse"],["CreateUser","CreateUserRequest","CreateUserResponse"],["CreateSignInLink","CreateSignInLinkRequest","CreateSignInLinkResponse"],["SetQuota","SetQuotaRequest","SetQuotaResponse"],["SetDefaultBudget","SetDefaultBudgetRequest","SetDefaultBudgetResponse"]]]]], [file_baton_v1_agent, file_baton_v1_tools, file_google_protobuf_timestamp]);
export const AccountSchema: typeof AccountSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 0);
export const QuotaSchema: typeof QuotaSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 1);
export const GetSignInLinkRequestSchema: typeof GetSignInLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 2);
export const GetSignInLinkResponseSchema: typeof GetSignInLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 3);
export const SignInRequestSchema: typeof SignInRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 4);
export const SignInResponseSchema: typeof SignInResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 5);
export const SignOutRequestSchema: typeof SignOutRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 6);
export const SignOutResponseSchema: typeof SignOutResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 7);
export const GetAccountRequestSchema: typeof GetAccountRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 8);
export const GetAccountResponseSchema: typeof GetAccountResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 9);
export const SetDefaultBudgetRequestSchema: typeof SetDefaultBudgetRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 10);
export const SetDefaultBudgetResponseSchema: typeof SetDefaultBudgetResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 11);
export const DeviceLinkSchema: typeof DeviceLinkSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 12);
export const StartDeviceLinkRequestSchema: typeof StartDeviceLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 13);
export const StartDeviceLinkResponseSchema: typeof StartDeviceLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 14);
export const PollDeviceLinkRequestSchema: typeof PollDeviceLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 15);
export const PollDeviceLinkResponseSchema: typeof PollDeviceLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 16);
export const ExchangeDeviceCodeRequestSchema: typeof ExchangeDeviceCodeRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 17);
export const ExchangeDeviceCodeResponseSchema: typeof ExchangeDeviceCodeResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 18);
export const GetDeviceLinkRequestSchema: typeof GetDeviceLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 19);
export const GetDeviceLinkResponseSchema: typeof GetDeviceLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 20);
export const DecideDeviceLinkRequestSchema: typeof DecideDeviceLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 21);
export const DecideDeviceLinkResponseSchema: typeof DecideDeviceLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 22);
export const ApiTokenSchema: typeof ApiTokenSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 23);
export const ListTokensRequestSchema: typeof ListTokensRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 24);
export const ListTokensResponseSchema: typeof ListTokensResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 25);
export const CreateTokenRequestSchema: typeof CreateTokenRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 26);
export const CreateTokenResponseSchema: typeof CreateTokenResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 27);
export const RenameTokenRequestSchema: typeof RenameTokenRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 28);
export const RenameTokenResponseSchema: typeof RenameTokenResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 29);
export const RevokeTokenRequestSchema: typeof RevokeTokenRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 30);
export const RevokeTokenResponseSchema: typeof RevokeTokenResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 31);
export const ListSessionsRequestSchema: typeof ListSessionsRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 32);
export const ListSessionsResponseSchema: typeof ListSessionsResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 33);
export const WatchSessionRequestSchema: typeof WatchSessionRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 34);
export const WatchSessionResponseSchema: typeof WatchSessionResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 35);
export const ListPlaybookVersionsRequestSchema: typeof ListPlaybookVersionsRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 36);
export const ListPlaybookVersionsResponseSchema: typeof ListPlaybookVersionsResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 37);
export const DiffLineSchema: typeof DiffLineSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 38);
export const DiffPlaybookVersionsRequestSchema: typeof DiffPlaybookVersionsRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 39);
export const DiffPlaybookVersionsResponseSchema: typeof DiffPlaybookVersionsResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 40);
export const RollBackPlaybookRequestSchema: typeof RollBackPlaybookRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 41);
export const RollBackPlaybookResponseSchema: typeof RollBackPlaybookResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 42);
export const PlaybookMatchSchema: typeof PlaybookMatchSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 43);
export const MatchPlaybooksRequestSchema: typeof MatchPlaybooksRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 44);
export const MatchPlaybooksResponseSchema: typeof MatchPlaybooksResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 45);
export const ListMemoriesRequestSchema: typeof ListMemoriesRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 46);
export const ListMemoriesResponseSchema: typeof ListMemoriesResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 47);
export const DeleteMemoryRequestSchema: typeof DeleteMemoryRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 48);
export const DeleteMemoryResponseSchema: typeof DeleteMemoryResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 49);
export const PinMemoryRequestSchema: typeof PinMemoryRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 50);
export const PinMemoryResponseSchema: typeof PinMemoryResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 51);
export const CreateMemoryRequestSchema: typeof CreateMemoryRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 52);
export const CreateMemoryResponseSchema: typeof CreateMemoryResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 53);
export const UsageRowSchema: typeof UsageRowSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 54);
export const GetUsageRequestSchema: typeof GetUsageRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 55);
export const GetUsageResponseSchema: typeof GetUsageResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 56);
export const UserSummarySchema: typeof UserSummarySchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 57);
export const ListUsersRequestSchema: typeof ListUsersRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 58);
export const ListUsersResponseSchema: typeof ListUsersResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 59);
export const CreateUserRequestSchema: typeof CreateUserRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 60);
export const CreateUserResponseSchema: typeof CreateUserResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 61);
export const CreateSignInLinkRequestSchema: typeof CreateSignInLinkRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 62);
export const CreateSignInLinkResponseSchema: typeof CreateSignInLinkResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 63);
export const SetQuotaRequestSchema: typeof SetQuotaRequestSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 64);
export const SetQuotaResponseSchema: typeof SetQuotaResponseSchema$1 = /*@__PURE__*/ messageDesc(file_baton_v1_console, 65);
export const DeviceLinkStatusSchema: typeof DeviceLinkStatusSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_console, 0);
export const DiffOpSchema: typeof DiffOpSchema$1 = /*@__PURE__*/ enumDesc(file_baton_v1_console, 1);
export const ConsoleService: typeof ConsoleService$1 = /*@__PURE__*/ serviceDesc(file_baton_v1_console, 0);
