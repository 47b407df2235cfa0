// `prepare` (npm ci, npm install and npm pack in a checkout): compiles src/ into lib/ when TypeScript
// is installed. `npm ci --omit=dev` installs no TypeScript: then it says so in one line and leaves
// lib/ as it is rather than fail the install, since a production machine runs a compiled lib/ (from
// the packed tarball, or a checkout compiled before `npm prune --omit=dev`; docs/production.md).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  process.stdout.write(
    "subjekti: TypeScript is not installed (--omit=dev): lib/ was not compiled; run a compiled lib/ (the packed tarball, or `npm ci && npm prune --omit=dev`)\n",
  );
  process.exit(0);
}
rmSync(new URL("../lib", import.meta.url), { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit", cwd: new URL("..", import.meta.url) });
process.exit(run.status ?? 1);
