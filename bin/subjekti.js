#!/usr/bin/env node
// The CLI is TypeScript run by tsx (a dependency), so `npx subjekti` works without a compile step.
import { register } from "tsx/esm/api";

register();
const { main, processIo } = await import("../src/cli.ts");
process.exitCode = await main(process.argv.slice(2), processIo());
