import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * `npm run test:unit` (SUBJEKTI_UNIT=1): the fast rings, for the edit-test loop, well under a minute
 * on the 2-core machine (BENCHMARKS.md, "Tests"). Left out: every file named `*.slow.test.ts` — the
 * host tables and real servers (nginx, workerd, Deno, Chromium), the packed install, killed and
 * spawned processes, the data-heavy files (each over 4 s) and a bound on memory that only a large
 * size shows. `npm test` runs everything: the fast rings as `test:unit` runs them (the "unit"
 * project), the slow files each in a process of its own (the "slow" project).
 */
const SLOW = ["test/**/*.slow.test.ts"];

const UNIT = process.env["SUBJEKTI_UNIT"] === "1";

export default defineConfig({
  test: {
    // Every temporary directory of a run under one of its own, removed at the end (test/run-tmpdir.ts).
    globalSetup: ["test/run-tmpdir.ts"],
    // Build and host tests spawn real processes (tsx, Deno, SIGKILL); give them room on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // vitest's default is one worker fewer than the cores: one worker on two cores, which leaves a
          // core idle while a test waits on its child processes, threads and files. The fast rings take
          // their own temporary directories and ports, so they take two workers at least, and in
          // `npm test` they run first, alone (the lower group), before the slow files.
          maxWorkers: Math.max(2, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SLOW],
          // The fast rings share each worker's module graph across files rather than import it afresh
          // for every file: a third of their CPU was importing the same modules (commander, zod, the
          // readers) 70 times over. They may, because no test mocks a module, stubs a global or changes
          // the environment, and what src/ keeps at module level is a load-once cache, what a command
          // registers and removes, or the Worker's and the edge function's manifest cache, which one
          // file of the ring imports (test/cloudflare/worker-assets.test.ts: a second would see the
          // first's site).
          isolate: false,
        },
      },
      // The slow files keep vitest's default isolation: they start servers, kill processes and set
      // the environment of what they spawn. Two side by side, after the fast rings: each takes its own
      // temporary directories and free ports, its process tests reach the moments they test by
      // construction (named pause points, lines the child prints), and a test's time limit bounds
      // work that ends (builds, a server's start) with room for the file beside it and other load.
      ...(UNIT ? [] : [{ extends: true as const, test: { name: "slow", include: SLOW, maxWorkers: 2, sequence: { groupOrder: 1 } } }]),
    ],
  },
});
