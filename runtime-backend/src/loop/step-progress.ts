import { create } from "@bufbuild/protobuf";
import { Phase, type StreamStepResponse } from "@baton/gen/baton/v1/agent_pb";
import { ProgressSchema, StreamStepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import type { StepEvent } from "./deps.js";

/** A step's progress event as StreamStep sends it (and the console's WatchSession relays it). */
export function progressOf(e: StepEvent): StreamStepResponse {
  switch (e.kind) {
    case "thinking":
      return create(StreamStepResponseSchema, { event: { case: "progress", value: create(ProgressSchema, { phase: Phase.THINKING, attempt: e.attempt }) } });
    case "tool":
      return create(StreamStepResponseSchema, {
        event: { case: "progress", value: create(ProgressSchema, { phase: Phase.TAKING_ACTION, tool: e.tool, detail: e.detail }) },
      });
    case "text":
      return create(StreamStepResponseSchema, { event: { case: "textDelta", value: e.delta } });
    case "reasoning":
      return create(StreamStepResponseSchema, { event: { case: "reasoningDelta", value: e.delta } });
  }
}
