/**
 * A build stopped after its switch leaves no record of an unchanged site (unchanged-build.ts): the
 * build of B is killed once its manifest is in place and its feed half written (the pause point
 * `feed-diff-written`, reached by construction), and the next build of A, whose record B's build
 * found, takes the full path and puts A back whole; the one after it does nothing. A build that
 * does nothing is told by construction: one that reads stops at the pause point after its records.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { tempDir } from "../file-trees.ts";
import { pauseAt, pausedLine, runProcess, siteView, whichSite, writeDataset } from "./build-processes.ts";

/** Where a build that reads the records pauses (its records written, nothing switched). */
const READ = "build-records-written";
let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-unchanged-stopped-");
  // 1,200 subjects (two chunks), and 7 fewer: every page differs; the points are reached whatever the size.
  await writeDataset(join(work, "a"), 1, 0, 1_200);
  await writeDataset(join(work, "b"), 1, 7, 1_200);
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

it("B's build killed after its switch, then A again: the full path puts A back; the next build of A does nothing", async () => {
  const out = join(work, "site");
  const args = (data: string): string[] => [
    "build",
    "--data",
    join(work, data),
    "--out",
    out,
    "--cache-dir",
    join(work, "cache"),
    "--base-url",
    "http://testserver",
    "--quiet",
  ];
  /** Builds `data`, which must end without reading a record: a build that reads stops at the pause point after the records, and is killed. */
  const doesNothing = async (data: string): Promise<boolean> => {
    const build = runProcess(args(data), pauseAt(READ));
    const read = await build.said(pausedLine(READ));
    if (read) build.kill("SIGKILL");
    const ended = await build.ended;
    return !read && ended.code === 0;
  };
  const references = { a: new Map<string, string>(), b: new Map<string, string>() };
  for (const name of ["b", "a"] as const) {
    const built = await runProcess(args(name)).ended;
    expect(built.code, built.stderr).toBe(0);
    references[name] = await siteView(out, "routed");
  }
  // A's record is in place: A again does nothing.
  expect(await doesNothing("a")).toBe(true);

  const POINT = "feed-diff-written";
  const stopped = runProcess(args("b"), pauseAt(POINT));
  expect(await stopped.said(pausedLine(POINT)), `the build never reached ${POINT}`).toBe(true);
  stopped.kill("SIGKILL");
  expect((await stopped.ended).signal).toBe("SIGKILL");
  expect(whichSite(await siteView(out, "routed"), references)).toBe("b");

  const again = await runProcess(args("a")).ended;
  expect(again.code, again.stderr).toBe(0);
  expect(whichSite(await siteView(out, "routed"), references)).toBe("a");
  expect(await doesNothing("a")).toBe(true);
  expect(whichSite(await siteView(out, "routed"), references)).toBe("a");
}, 300_000);
