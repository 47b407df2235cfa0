/**
 * How a test starts the CLI as a process of its own: the compiled lib/ (what the package runs,
 * `npm ci` compiles it) while it is as new as every source under src/, else the sources through
 * tsx. A process then costs Node's start-up, not tsx's transform of the CLI's modules besides
 * (some 0.7 s of CPU a process, and the process tests start hundreds). A source edited after the
 * last `npm run compile` is never missed (bin/stale-lib.js, the walk the CLI warns by): the tests
 * then run the sources, as they did before.
 * SUBJEKTI_TEST_CLI=tsx forces the sources.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { libOlderThanSources } from "../bin/stale-lib.js";

const REPO = join(import.meta.dirname, "..");

/** Whether a process test in the checkout `repo` runs its compiled lib/ (else the sources through tsx). */
export function runsLib(repo: string, forceSources = process.env["SUBJEKTI_TEST_CLI"] === "tsx"): boolean {
  return !forceSources && existsSync(join(repo, "lib/cli/main.js")) && !libOlderThanSources(repo);
}

/** Node's arguments before the CLI's own in `repo`: lib/'s entry, or the sources' with tsx's loader. */
function entry(repo: string, lib: boolean): readonly string[] {
  return lib ? [join(repo, "lib/cli/main.js")] : ["--import", "tsx", join(repo, "src/cli/main.ts")];
}

/** Node's arguments before the CLI's own in the checkout `repo`: the CLI's entry, and tsx's loader when it is the sources'. */
export function cliEntry(repo: string, forceSources?: boolean): readonly string[] {
  return entry(repo, runsLib(repo, forceSources));
}

/** This checkout's choice, once a run. */
export const RUNS_LIB = runsLib(REPO);

/** This checkout's entry, once a run. */
export const CLI_ENTRY = entry(REPO, RUNS_LIB);
