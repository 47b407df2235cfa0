/** The build's progress bar (a terminal only, after a second) and its one-line summary. */
import { describe, expect, it } from "vitest";
import { rm } from "node:fs/promises";
import { formatBytes, progressBar, summarise } from "../../src/cli/build-report.ts";
import { translator } from "../../src/common/messages/translate.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";

/** A fake stream and clock: what the bar writes, and when. */
function terminal(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  return { out: { isTTY, write: (text: string) => written.push(text) }, written, clock: () => now, advance: (ms: number) => (now += ms) };
}

describe("progressBar", () => {
  it("not a terminal -> no bar at all", () => {
    const t = terminal(false);
    expect(progressBar(t.out, t.clock)).toBeUndefined();
  });

  it("a build under a second -> nothing drawn, nothing to clear", () => {
    const t = terminal(true);
    const bar = progressBar(t.out, t.clock);
    bar?.update(10, 100);
    t.advance(900);
    bar?.update(100, 100);
    bar?.done();
    expect(t.written).toEqual([]);
  });

  it("a longer build -> files done of total, rate since the first file and time left, redrawn at most every 100 ms, cleared at the end", () => {
    const t = terminal(true);
    const bar = progressBar(t.out, t.clock);
    t.advance(1500); // reading and validating: no file yet
    bar?.update(0, 2000);
    t.advance(2000);
    bar?.update(500, 2000);
    t.advance(50);
    bar?.update(520, 2000); // too soon: not redrawn
    t.advance(100);
    bar?.update(600, 2000);
    bar?.done();
    expect(t.written).toHaveLength(4);
    expect(t.written[1]).toMatch(/^\r\[#{8}\.{22}\] 500\/2000 files {2}250\/s {2}6s left $/);
    expect(t.written[2]).toContain("600/2000 files");
    expect(t.written[3]).toBe("\r\x1b[2K");
  });

  it("in Croatian: the figures with Croatian numbers and plurals, the bar the same", () => {
    const t = terminal(true);
    const bar = progressBar(t.out, t.clock, "requests", translator("hr"));
    t.advance(1500);
    bar?.update(0, 2000);
    t.advance(2000);
    bar?.update(500, 2000);
    expect(t.written[1]).toMatch(/^\r\[#{8}\.{22}\] 500\/2\.000 zahtjeva {2}250\/s {2}još 6 s $/);
  });
});

describe("summarise", () => {
  it("states files, written, unchanged, removed with bytes, and seconds", () => {
    const line = summarise(
      {
        count: 5758,
        reused: 0,
        files: 583,
        written: 4,
        unchanged: 579,
        removed: 2,
        bytesWritten: 294_451,
        bytesRemoved: 1_500,
        seconds: 0.734,
        warnings: [],
        kinds: [],
      },
      { outDir: "dist" },
    );
    expect(line).toBe("built 5758 subjects into dist/: 583 files, 4 written (294.5 KB), 579 unchanged, 2 removed (1.5 KB) in 0.73s");
  });

  it("says how many subjects came from the build cache, when any did", () => {
    const line = summarise(
      {
        count: 5758,
        reused: 4758,
        files: 583,
        written: 4,
        unchanged: 579,
        removed: 0,
        bytesWritten: 294_451,
        bytesRemoved: 0,
        seconds: 0.2,
        warnings: [],
        kinds: [],
      },
      { outDir: "dist" },
    );
    expect(line).toBe(
      "built 5758 subjects (4758 unchanged, from the build cache) into dist/: 583 files, 4 written (294.5 KB), 579 unchanged, 0 removed (0 B) in 0.20s",
    );
  });

  it("formatBytes: 999 B, 1.0 KB, 874.3 MB, 2.5 GB", () => {
    expect([999, 1000, 874_300_000, 2_500_000_000].map(formatBytes)).toEqual(["999 B", "1.0 KB", "874.3 MB", "2.5 GB"]);
  });
});

describe("the build command", () => {
  it("not a terminal -> no bar, the summary on stdout, exit 0; a second run writes 0 files", async () => {
    const out = await tempDir();
    const run = () => runCli(["build", "--data", "test/fixtures/small-site", "--out", out, "--no-cache"]);
    const first = await run();
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^built 47 subjects into ${out}/: \\d+ files, \\d+ written \\(.*\\), 0 unchanged, 0 removed \\(0 B\\) in \\d+\\.\\d\\ds\\nchange feed: a new feed starts at sequence 1 \\(.*\\)\\n$`,
      ),
    );
    const second = (await run()).stdout;
    expect(second).toMatch(/: (\d+) files, 0 written \(0 B\), \1 unchanged, 0 removed/);
    expect(second).toMatch(/\nno subject changed since the last build \(change feed: still sequence 1\)\n$/);
    await rm(out, { recursive: true, force: true });
  });

  it("bad data -> every problem on stderr, exit 1", async () => {
    const result = await runCli(["build", "--data", "test/fixtures/bad-many", "--out", "/nonexistent/never-written"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^test\/fixtures\/bad-many\/.*expected/m);
    expect(result.stderr).toMatch(/subjekti: \d+ errors in the data; nothing was written\n$/);
    expect(result.stderr).not.toContain("\r");
  });
});
