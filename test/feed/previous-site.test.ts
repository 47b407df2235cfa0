/**
 * `build --previous <url>` against a hostile or broken site written here (loopback only): the
 * previous site is input, not truth. Each attack is refused in one line before the build writes
 * anything (the output is not even made, no temporary is left), or is carried only as our own
 * serialisation of what was validated.
 */
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SubjektiError } from "../../src/core/errors.ts";
import type { FeedState } from "../../src/feed/feed-format.ts";
import { DEFAULT_LIMITS } from "../../src/feed/feed-limits.ts";
import { readPreviousFeed } from "../../src/feed/read-previous.ts";
import { tempDir } from "../file-trees.ts";
import { build } from "../site/built-site.ts";
import { buildLiveFeed, liveFeed, SAMPLE } from "./live-feed.ts";
import { answer, flood, type Handler, startHostileSite, trickle } from "./hostile-site.ts";

let root: string;
let live: string;
let state: FeedState;

beforeAll(async () => {
  root = await tempDir("subjekti-previous-");
  ({ live, state } = await buildLiveFeed(root));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const stateWith = (change: (s: Record<string, unknown>) => unknown): Handler =>
  answer(JSON.stringify(change(structuredClone(state) as unknown as Record<string, unknown>)));
const scratchLeft = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith(`subjekti-${process.pid}-feed-`));

/** A build continuing the feed of `routes`: its report, or the one line it was refused with; and whether it wrote anything. */
async function buildFrom(routes: (path: string) => Handler | undefined): Promise<{ error?: string; out: string }> {
  const site = await startHostileSite(routes);
  const out = join(root, `out-${Math.random().toString(36).slice(2)}`);
  const data = join(root, "data");
  try {
    await build(data, out, { feed: true, cacheDir: null, previous: site.origin, sourceDateEpoch: "1800000000" });
    return { out };
  } catch (error) {
    if (!(error instanceof SubjektiError)) throw error;
    return { error: error.message, out };
  } finally {
    await site.close();
  }
}

describe("build --previous <url> refuses a state it cannot trust, in one line, writing nothing", () => {
  const history = (s: Record<string, unknown>): Record<string, unknown>[] => s["history"] as Record<string, unknown>[];
  it.each<[string, (s: Record<string, unknown>) => unknown, RegExp]>([
    [
      "a date V8's Date.parse takes: (<anything>) Nov 20 2026",
      (s) => (history(s)[0]!["published"] = "(<x>) Nov 20 2026"),
      /history\[0\]\.published is not a date/,
    ],
    [
      "markup in the state's date",
      (s) => (s["published"] = '2026-01-01T00:00:00.000Z</updated><entry><link href="javascript:alert(1)"/>'),
      /published is not a date/,
    ],
    ["a date that is no day (February 30)", (s) => (history(s)[1]!["published"] = "2026-02-30T00:00:00.000Z"), /history\[1\]\.published/],
    ["the sequence 2^53 - 1", (s) => (s["sequence"] = Number.MAX_SAFE_INTEGER), /sequence is not a whole number from 1 to 281474976710656/],
    [
      "a snapshot on another host",
      (s) => ((s["snapshot"] as Record<string, unknown>)["url"] = "https://evil.example/x.ndjson"),
      /snapshot is not/,
    ],
    ["a history whose versions do not follow", (s) => (history(s)[1]!["from_version"] = "f".repeat(64)), /history\[1\] does not follow/],
    ["a history entry with markup for a count", (s) => (history(s)[2]!["upserts"] = "<script>"), /upserts or deletes is not a count/],
    [
      "an entry from a version to itself (an empty diff that verifies, for ever)",
      (s) => (history(s)[2]!["from_version"] = history(s)[2]!["to_version"]),
      /history\[2\] goes from a version to itself/,
    ],
    ["oldest naming a diff the history does not", (s) => (s["oldest"] = 1), /oldest 1 names a diff the history does not/],
  ])("%s -> refused", async (_name, change, line) => {
    const { error, out } = await buildFrom(liveFeed(live, { "/changes/state.json": stateWith((s) => (change(s), s)) }));
    expect(error).toMatch(line);
    expect(error).toMatch(/^[^\n]*$/);
    expect(existsSync(out)).toBe(false);
    expect(scratchLeft()).toEqual([]);
  });
});

describe("build --previous <url> carries diffs only as validated and written again by us", () => {
  it("a diff that is an HTML page -> refused in one line, nothing written", async () => {
    const { error, out } = await buildFrom(liveFeed(live, { "/changes/3.json": answer("<html><script>alert(1)</script></html>\n") }));
    expect(error).toMatch(/\/changes\/3\.json: not the diff its state names: not a diff/);
    expect(existsSync(out)).toBe(false);
    expect(scratchLeft()).toEqual([]);
  });

  it.each<[string, (text: string) => string, RegExp]>([
    [
      "counts that are not the history's",
      (t) => t.replace(/\n\{"op":"upsert".*\}/, ""),
      /holds 0 upserts and 0 deletes, where the state's history says 1 and 0/,
    ],
    ["a record that is not JSON", (t) => t.replace(/"record":\{"id":(\d+),/, '"record":{"id":$1,<script>'), /not the diff its state names/],
    [
      "a header naming another version",
      (t) => t.replace(/"to_version":"[0-9a-f]{64}"/, `"to_version":"${"e".repeat(64)}"`),
      /its header is not the one/,
    ],
  ])("a diff with %s -> refused", async (_name, change, line) => {
    const text = await readFile(join(live, "changes/3.json"), "utf8");
    const { error } = await buildFrom(liveFeed(live, { "/changes/3.json": answer(change(text)) }));
    expect(error).toMatch(line);
  });

  it("a diff with a foreign header key and junk after its end -> carried as the build writes it, byte for byte", async () => {
    const text = await readFile(join(live, "changes/3.json"), "utf8");
    const hostile = `${text.replace('"changes":[', '"evil":"<script>alert(1)</script>","changes":[')}<html><script>alert(2)</script>\n`;
    const { error, out } = await buildFrom(liveFeed(live, { "/changes/3.json": answer(hostile) }));
    expect(error).toBeUndefined();
    expect(await readFile(join(out, "changes/3.json"), "utf8")).toBe(text);
  });
});

describe("build --previous <url> is bounded in size, count, sequence and time", () => {
  it("a compressed answer (fetch would inflate it without a bound) -> refused in one line", async () => {
    const { error } = await buildFrom(liveFeed(live, { "/changes/state.json": answer("x", { "content-encoding": "gzip" }) }));
    expect(error).toMatch(/state\.json: answered with Content-Encoding "gzip", though asked for none/);
  });

  it("a snapshot longer than its state says -> refused at that size, no temporary left", async () => {
    const bytes = await readFile(join(live, "changes", state.snapshot.url));
    const { error, out } = await buildFrom(
      liveFeed(live, { [`/changes/${state.snapshot.url}`]: answer(Buffer.concat([bytes, Buffer.alloc(1 << 20, 0x20)])) }),
    );
    expect(error).toMatch(new RegExp(`the answer passes the size its state gives of ${state.snapshot.bytes} bytes`));
    expect(existsSync(out)).toBe(false);
    expect(scratchLeft()).toEqual([]);
  });

  it("a state.json over its bound, stated or streamed -> refused before it is read whole", async () => {
    expect((await buildFrom(liveFeed(live, { "/changes/state.json": flood }))).error).toMatch(
      /state\.json: the answer passes the bound of 67108864 bytes/,
    );
    const stated: Handler = (response) => response.writeHead(200, { "content-length": String(1 << 30) }).end();
    expect((await buildFrom(liveFeed(live, { "/changes/state.json": stated }))).error).toMatch(
      /its Content-Length 1073741824 is over the bound/,
    );
  });

  it("a huge sequence whose every diff answers 200 -> no diff asked past the history; the output's unnamed diffs swept", async () => {
    const far = 2 ** 40;
    const entries = state.history.slice(1).map((entry, i) => ({ ...entry, sequence: far - 1 + i }));
    const site = await startHostileSite((path) =>
      path === "/changes/state.json"
        ? stateWith((s) => ({ ...s, sequence: far, oldest: far + 1, history: entries }))
        : /^\/changes\/\d+\.json$/.test(path)
          ? answer("junk")
          : liveFeed(live)(path),
    );
    const out = join(root, "far");
    const data = join(root, "far-data");
    await mkdir(data);
    await writeFile(join(data, "subjekti.json"), JSON.stringify(SAMPLE.slice(2)));
    await mkdir(join(out, "changes"), { recursive: true });
    for (const n of [1, 7, far + 5]) await writeFile(join(out, "changes", `${n}.json`), "junk");
    try {
      const report = await build(data, out, {
        feed: true,
        cacheDir: null,
        previous: site.origin,
        sourceDateEpoch: "1800000000",
      });
      expect(report.feed).toMatchObject({ sequence: far + 1, changed: true });
      expect(site.asked.filter((path) => /^\/changes\/\d+\.json$/.test(path))).toEqual([]);
      expect(readdirSync(join(out, "changes")).filter((name) => name.endsWith(".json"))).toEqual([`${far + 1}.json`, "state.json"]);
    } finally {
      await site.close();
    }
  });

  it("a state sent a byte at a time -> refused once the grace has passed, not after the trickle", async () => {
    const site = await startHostileSite({ "/changes/state.json": trickle(50) });
    const started = performance.now();
    try {
      const read = readPreviousFeed(site.origin, join(root, "never"), false, {
        limits: { ...DEFAULT_LIMITS, graceMs: 400, minRate: 1024 },
      });
      await expect(read).rejects.toThrow(/state\.json: \d+ bytes in \d+ s, slower than 1024 bytes a second/);
      // The trickle would go on for ever: the refusal came from the rate floor, within a few of its checks.
      expect(performance.now() - started).toBeLessThan(400 + 2000);
    } finally {
      await site.close();
    }
    expect(scratchLeft()).toEqual([]);
  });

  it("a site that never answers -> refused at the overall deadline", async () => {
    const site = await startHostileSite({ "/changes/state.json": () => undefined });
    try {
      const read = readPreviousFeed(site.origin, join(root, "never"), false, { limits: { ...DEFAULT_LIMITS, deadlineMs: 300 } });
      await expect(read).rejects.toThrow(/state\.json: no whole answer within the deadline of 0 s/);
    } finally {
      await site.close();
    }
  });
});
