/**
 * Record threads (src/build/record-threads.ts): reading in threads must give exactly what reading
 * on the main thread gives: the same subjects, warnings and problems, the same site.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataError, formatProblem } from "../../src/build/problems.ts";
import { readSubjects } from "../../src/build/read-subjects.ts";
import { startRecordThreads } from "../../src/build/record-threads.ts";
import { snapshotTree, tempDir } from "../_tree.ts";
import { build } from "./_build.ts";

/** What reading gives: subjects and warnings, or the problem lines of the DataError. */
async function read(dataDir: string, threads: number): Promise<unknown> {
  try {
    const { subjects, warnings } = await readSubjects({ dataDir, strict: false, threads });
    return { subjects, warnings: warnings.map(formatProblem) };
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    return { problems: error.problems.map(formatProblem) };
  }
}

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-threads-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("reading in record threads", () => {
  it("gives the same subjects, warnings and problems as on the main thread, for every fixture", async () => {
    const fixtures = (await readdir("test/fixtures")).filter((name) => name !== "hosts-site");
    expect(fixtures.length).toBeGreaterThan(30);
    for (const name of fixtures) {
      const dir = `test/fixtures/${name}`;
      expect({ name, ...((await read(dir, 2)) as object) }).toEqual({ name, ...((await read(dir, 0)) as object) });
    }
  }, 120_000);

  it("builds the sample into the same tree as without threads", async () => {
    const [a, b] = [join(work, "threads-0"), join(work, "threads-2")];
    await build("data", a, { threads: 0, limits: [7, 20] });
    await build("data", b, { threads: 2, limits: [7, 20] });
    expect(await snapshotTree(b)).toEqual(await snapshotTree(a));
  });

  it("a block a thread cannot do fails the read, and the threads stop", async () => {
    const threads = startRecordThreads(1);
    const file = { name: "x.json", path: "x.json", locateBy: "index", kind: "json" } as const;
    // No `starts`: rendering the block throws inside the thread.
    const broken = { first: 0, bytes: new Uint8Array([0x7b, 0x7d]), lines: [1] } as unknown as Parameters<typeof threads.render>[0]["text"];
    await expect(threads.render({ file, strict: false, text: broken })).rejects.toThrow(/a record thread failed/);
    await threads.close();
  });
});
