#!/usr/bin/env node
// The `baton` command: registers tsx so the TypeScript sources run as they are, then hands
// over to the CLI. Needs Node >= 20.6 (module.register); the repo pins Node 24.
// `npm start` runs this file as `baton`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
