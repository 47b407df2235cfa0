import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:unit` (SUBJEKTI_UNIT=1): the fast rings, for the edit-test loop, well under a minute
 * on the 2-core machine (BENCHMARKS.md, "Tests"). Left out: the host tables and real servers (nginx,
 * workerd, Deno, Chromium), the packed install, killed and spawned processes, the data-heavy files
 * (each over 4 s) and a bound on memory that only a large size shows. `npm test` runs everything.
 */
const SLOW = [
  "test/hosts/**",
  "test/browser/**",
  "test/deploy/**",
  "test/nginx/**",
  "test/check/check-wrangler.test.ts",
  "test/check/check-bounds.test.ts",
  "test/compiled-cli.test.ts",
  "test/cli-watch.test.ts",
  "test/feed/feed-crash.test.ts",
  "test/feed/sync-hosts.test.ts",
  "test/site/atomic-build.test.ts",
  "test/site/interrupted-builds.test.ts",
  "test/site/overlapping-builds.test.ts",
  "test/site/hostile-sources.test.ts",
  "test/site/build-cache.test.ts",
  "test/site/spreadsheet-sources.test.ts",
  "test/site/streamed-build.test.ts",
  "test/site/record-threads.test.ts",
  "test/site/plain-site.test.ts",
  // The preview and nginx in front of `subjekti serve`, as real servers (its core part is quick; the servers are not).
  "test/site/etags-change-with-bytes.test.ts",
  // exceljs reads a data validation's range cell by cell: the drop-down down to row 1,048,576 is a
  // million entries, seconds for one test.
  "test/export/workbook-helpers.test.ts",
  // The manual's recipe run as written: a shell, git and the compiled CLI, each a process.
  "test/site/spreadsheet-workflow.test.ts",
  // LibreOffice Calc converting the exported sample in a Croatian locale: a real program, seconds.
  "test/site/croatian-libreoffice.slow.test.ts",
  // A bound on memory, measured as a process's peak RSS at 200k records: only that size shows it.
  "test/scripts/generate-subjects-memory.test.ts",
];

const UNIT = process.env["SUBJEKTI_UNIT"] === "1";

export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: one worker on two cores, which leaves a
    // core idle while a test waits on its child processes, threads and files. The fast rings take
    // their own temporary directories and ports, so they take two workers at least; the rest keeps the default.
    ...(UNIT ? { maxWorkers: Math.max(2, availableParallelism() - 1) } : {}),
    // The fast rings share each worker's module graph across files rather than import it afresh for
    // every file: a third of their CPU was importing the same modules (commander, zod, the readers)
    // 70 times over. They may, because no test mocks a module, stubs a global or changes the
    // environment, and what src/ keeps at module level is a load-once cache, what a command
    // registers and removes, or the Worker's and the edge function's manifest cache, which one file
    // of the ring imports (test/cloudflare/worker-assets.test.ts: a second would see the first's
    // site). `npm test` keeps vitest's default isolation.
    ...(UNIT ? { isolate: false } : {}),
    include: ["test/**/*.test.ts"],
    // Every temporary directory of a run under one of its own, removed at the end (test/_run-tmpdir.ts).
    globalSetup: ["test/_run-tmpdir.ts"],
    exclude: [...configDefaults.exclude, ...(UNIT ? SLOW : [])],
    // Build and host tests spawn real processes (tsx, Deno, SIGKILL); give them room on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
