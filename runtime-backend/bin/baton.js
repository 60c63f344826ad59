#!/usr/bin/env -S node --max-semi-space-size=32
// The `baton` command: registers tsx so the TypeScript sources run as they are, then hands
// over to the CLI. Needs Node >= 20.6 (module.register); the repo pins Node 24.
// --max-semi-space-size=32: a busy `baton serve` allocates short-lived buffers and JSON text
// for every turn; a larger young generation cuts its CPU per turn by about 8%
// (npm run bench:backend). `npm start` runs this file as `baton`; the test helper that spawns
// the server with `process.execPath` passes the flag itself.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
