/**
 * A build killed (SIGKILL) at random moments while it writes the change feed leaves a feed whose
 * state names only files that exist and verify: the previous state whole, or the new one whole.
 * The first rounds are killed inside the feed stage by construction (a named pause point: the diff
 * written, the snapshot and the state not yet); the rest at moments spread after the stage starts.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffName, type FeedState, parseState } from "../../src/feed/feed-format.ts";
import { pauseAt, pausedLine, runProcess } from "../site/build-processes.ts";

/** Kill moments after the feed stage starts, spread over it (about 110 ms for this list on the dev machine; longer under load). */
const DELAYS_MS = [0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150, 180];
/** Rounds killed at the pause point first, then one for each delay. */
const PAUSED = 2;
const ROUNDS = PAUSED + DELAYS_MS.length;
const POINT = "feed-diff-written";
let root: string;

type Subject = Record<string, unknown> & { id: number; jedinstvena_oznaka: string };

/** The sample seven times over (about 40,000 subjects): a feed stage that takes long enough to be caught. */
async function writeData(dir: string, round: number): Promise<void> {
  const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];
  const list: Subject[] = [];
  for (let copy = 0; copy < 7; copy++) {
    for (const s of sample)
      list.push({
        ...s,
        id: copy * 1_000_000 + s.id,
        jedinstvena_oznaka: String(copy * 1_000_000 + Number(s.jedinstvena_oznaka)).padStart(4, "0"),
      });
  }
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
  return spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...buildArgs(data, site)], { stdio: "ignore" });
}

describe("a build killed while it writes the change feed", () => {
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "subjekti-feed-crash-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it(`leaves a whole feed, the previous or the new, in ${ROUNDS} rounds killed at moments spread over the feed stage`, async () => {
    const site = join(root, "site");
    await writeData(join(root, "data"), 0);
    await new Promise((resolve) => build(join(root, "data"), site).on("exit", resolve));
    let last = await feedHolds(site);
    let killedInFeed = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      await writeData(join(root, "data"), round);
      if (round <= PAUSED) {
        const paused = runProcess(buildArgs(join(root, "data"), site), pauseAt(POINT));
        expect(await paused.said(pausedLine(POINT)), `round ${round}: the build never reached ${POINT}`).toBe(true);
        paused.kill("SIGKILL");
        expect((await paused.ended).signal).toBe("SIGKILL");
        killedInFeed++;
        const now = await feedHolds(site);
        // Killed before its state was written: the previous feed, whole.
        expect(now.sequence).toBe(last.sequence);
        last = now;
        continue;
      }
      const child = build(join(root, "data"), site);
      const exited = new Promise<unknown>((resolve) => child.on("exit", resolve));
      // Wait for the feed stage (its temporary snapshot appears), then kill at this round's moment.
      const deadline = Date.now() + 60_000;
      let inFeed = false;
      while (child.exitCode === null && Date.now() < deadline) {
        const names = await readdir(join(site, "changes")).catch(() => []);
        if (names.some((name) => name.endsWith(`.tmp-${child.pid}`))) {
          inFeed = true;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await new Promise((resolve) => setTimeout(resolve, DELAYS_MS[round - 1 - PAUSED]));
      child.kill("SIGKILL");
      await exited;
      if (inFeed) killedInFeed++;
      const now = await feedHolds(site);
      expect([last.sequence, last.sequence + 1]).toContain(now.sequence);
      last = now;
    }
    // The paused rounds were killed inside the feed stage by construction; the timed ones where the stage was seen started.
    expect(killedInFeed, "rounds killed inside the feed stage").toBeGreaterThanOrEqual(PAUSED);
    // The next build finishes the feed: one sequence on from the last whole state.
    await writeData(join(root, "data"), ROUNDS + 1);
    await new Promise((resolve) => build(join(root, "data"), site).on("exit", resolve));
    expect((await feedHolds(site)).sequence).toBe(last.sequence + 1);
    // And it removed what the killed builds left.
    expect((await readdir(join(site, "changes"))).filter((name) => name.includes(".tmp-"))).toEqual([]);
    // Sixteen builds of 40k subjects: about 50 s on a quiet machine, several minutes at a load of 15.
  }, 600_000);
});
