/**
 * A build killed (SIGKILL) at each step of writing the change feed leaves a feed whose state names
 * only files that exist and verify: the previous state whole until the new one is written, the new
 * one whole from then on. Each step is reached by construction, whatever the machine's load: the
 * build runs with a named pause point (SUBJEKTI_PAUSE_AT) and is killed once it says it waits there.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffName, type FeedState, parseState } from "../../src/feed/feed-format.ts";
import { pauseAt, pausedLine, runProcess } from "../site/build-processes.ts";
import { CLI_ENTRY } from "../cli-entry.ts";

/**
 * The feed stage's points in its order (src/feed/write-feed.ts): the diff written, the snapshot in
 * place, the state (and the Atom feed) written and the old files not yet pruned. Each twice over,
 * so that a killed build's leftovers meet the next one's.
 */
const POINTS = ["feed-diff-written", "feed-snapshot-placed", "feed-state-written"] as const;
const ROUNDS = POINTS.flatMap((point) => [point, point]);
let root: string;

type Subject = Record<string, unknown> & { id: number; jedinstvena_oznaka: string };

/** 1,200 subjects of the sample, a rename and a deletion apart each round: the stops are reached by construction, not caught in a long stage. */
async function writeData(dir: string, round: number): Promise<void> {
  const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];
  const list = sample.slice(0, 1_200).map((s) => ({ ...s }));
  // Each round's data differs: a rename and a deletion.
  (list[round * 10] as Subject)["naziv_subjekta"] = `Preimenovan ${round}`;
  list.splice(round * 100 + 1, 1);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "subjekti.json"), JSON.stringify(list));
}

/** The feed under `site` holds together: its snapshot hashes to its version, every diff it keeps exists. */
async function feedHolds(site: string): Promise<FeedState> {
  const state = parseState(await readFile(join(site, "changes/state.json"), "utf8"));
  if (typeof state === "string") throw new Error(state);
  const snapshot = await readFile(join(site, "changes", state.snapshot.url));
  expect(createHash("sha256").update(snapshot).digest("hex")).toBe(state.version);
  for (let sequence = state.oldest; sequence <= state.sequence; sequence++) await readFile(join(site, "changes", diffName(sequence)));
  return state;
}

/**
 * `subjekti build` of `data` into `site`, the feed on. Only what the feed reads is written before
 * it: the NDJSON download (the feed's list, as in a default build) and one form of pages; the CSV
 * and the workbook, and the second form, were a sixth of each of the sixteen builds' CPU and
 * nothing the feed stage sees.
 */
const buildArgs = (data: string, site: string): string[] => [
  "build",
  "--data",
  data,
  "--out",
  site,
  "--no-cache",
  "--quiet",
  "--base-url",
  "http://testserver",
  "--downloads",
  "ndjson",
  "--forms",
  "plain",
];

function build(data: string, site: string): ReturnType<typeof spawn> {
  return spawn(process.execPath, [...CLI_ENTRY, ...buildArgs(data, site)], { stdio: "ignore" });
}

describe("a build killed while it writes the change feed", () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "subjekti-feed-crash-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it(`leaves a whole feed, the previous or the new, when killed at ${POINTS.join(", ")}`, async () => {
    const site = join(root, "site");
    await writeData(join(root, "data"), 0);
    await new Promise((resolve) => build(join(root, "data"), site).on("exit", resolve));
    let last = await feedHolds(site);
    for (const [index, point] of ROUNDS.entries()) {
      const round = index + 1;
      await writeData(join(root, "data"), round);
      const paused = runProcess(buildArgs(join(root, "data"), site), pauseAt(point));
      if (!(await paused.said(pausedLine(point))))
        expect.fail(`round ${round}: the build never reached ${point}: ${(await paused.ended).stderr}`);
      paused.kill("SIGKILL");
      expect((await paused.ended).signal).toBe("SIGKILL");
      const now = await feedHolds(site);
      // Killed before its state was written: the previous feed, whole; after: the new one, whole.
      expect(now.sequence, `round ${round}, killed at ${point}`).toBe(point === "feed-state-written" ? last.sequence + 1 : last.sequence);
      last = now;
    }
    // The next build finishes the feed: one sequence on from the last whole state.
    await writeData(join(root, "data"), ROUNDS.length + 1);
    await new Promise((resolve) => build(join(root, "data"), site).on("exit", resolve));
    expect((await feedHolds(site)).sequence).toBe(last.sequence + 1);
    // And it removed what the killed builds left.
    expect((await readdir(join(site, "changes"))).filter((name) => name.includes(".tmp-"))).toEqual([]);
  }, 300_000);
});
