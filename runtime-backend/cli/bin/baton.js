#!/usr/bin/env -S node --max-semi-space-size=8
// The `baton` command: registers tsx so the TypeScript sources run as they are, then hands
// over to the CLI. Needs Node >= 20.6 (module.register); the repo pins Node 24.
// --max-semi-space-size=8: a turn's state lives through its model call, so the young
// generation's collections copy what every turn in flight holds; at 8 MB (V8's default on
// this machine is 16) each pause is short. At 1,000 sessions × 1 s the overhead's p99 was
// 10–21 ms against 20–29 with 32 MB, for 10% less throughput at zero model latency
// (npm run bench:backend, docs/benchmarks.md). `npm start` runs this file as `baton`; the
// test helper that spawns the server with `process.execPath` passes the flag itself.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
