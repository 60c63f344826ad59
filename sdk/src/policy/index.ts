/**
 * Trust rules written once and asked by every surface (the engine, `baton mcp`, `baton run`,
 * `baton eval`, the extension). Runtime-neutral.
 */
export {
  foldersInWords,
  guardUploads,
  isAbsolutePath,
  isInside,
  lexicalResolver,
  locateUploads,
  noFileMessage,
  normalizePath,
  type OutsideDecision,
  type PathResolver,
  type UploadFile,
  type UploadGuard,
  type UploadRule,
} from "./upload-rule.js";
