/**
 * Script files for the `script` provider: scripted turns, role+name targets resolved against
 * the latest snapshot, and end-of-run expectations.
 */
export {
  checkExpectations,
  type PageProbe,
  parseScriptFile,
  type ScriptCall,
  type ScriptExpectations,
  type ScriptFile,
  ScriptFileError,
  type ScriptTurn,
} from "./script-file.js";
export { type SnapshotRef, snapshotRefs } from "./snapshot-refs.js";
export { engineProbe } from "./engine-probe.js";
export { findTarget, isTarget, latestSnapshotText, type ResolvedArgs, resolveTargets, type TargetSpec } from "./targets.js";
export { perceptionTools, type RecordingContext, type RecordingPage, ScriptRecorder, targetOf, urlPattern } from "./recorder.js";
export {
  describeScriptCall,
  type HealRequest,
  type HealResult,
  type ReplayContext,
  type ReplayEvent,
  type ReplayOptions,
  type ReplayOutcome,
  replayScript,
  scriptGoal,
} from "./replay.js";
