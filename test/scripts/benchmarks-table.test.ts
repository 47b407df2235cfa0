import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  HEADER,
  HISTORY_FILE,
  TABLE_FILE,
  anchorOf,
  commandLine,
  keyOf,
  isQuiet,
  quietness,
  loadCell,
  machineWork,
  othersCores,
  replaceRows,
  type RunStamp,
  writeRun,
} from "../../scripts/benchmarks-table.ts";
import { useTempDir } from "../file-trees.ts";

const SAMPLE = [
  "# Benchmarks",
  "",
  "A preamble | with a pipe, kept as it is.",
  "",
  "## Builds",
  "",
  HEADER,
  "|---|---|---|---|---|--:|---|---|---|",
  "| 1M, full build | **9.1 s, 482 MB** | 2026-11-23 23:53 | f2d1b72 | AMD EPYC, 2 cores | 1.4 | `npm run bench` | [x](docs/benchmarks-history.md#x) | `build-1m-full` |",
  "| a one-off comparison \\| two builds | **48.0 s** | 2026-11-25 20:04 | fc04b6a | AMD EPYC, 2 cores | 6.8–13.7 | `node …` | [y](docs/benchmarks-history.md#y) | by hand |",
  "| 10k, full build | **0.9 s, 152 MB** | 2026-11-22 06:24 | ab121b0 | AMD EPYC, 2 cores | 1.84 | `npm run bench` | [z](docs/benchmarks-history.md#z) | `build-10k-full` |",
  "",
  "Commentary under the table.",
  "",
  "## Start-up",
  "",
  HEADER,
  "|---|---|---|---|---|--:|---|---|---|",
  "| `subjekti --help` | **72.3 ms** | 2026-11-25 19:55 | 875c1cf | AMD EPYC, 2 cores | 9.7 | `npm run bench:startup` | [s](docs/benchmarks-history.md#s) | `startup-help` |",
  "",
].join("\n");

const STAMP: RunStamp = {
  time: "2026-11-26 00:01:02",
  commit: "abc1234+dirty",
  machine: "AMD EPYC 7B13, 2 cores, 24 GB, Node v20.20.2",
  load: "2.1–3.4",
  command: "npm run bench -- --sizes 10k --write",
};

describe("the BENCHMARKS.md writer", () => {
  const dir = useTempDir();

  it("replaces only its rows, keeps every other line byte for byte, and adds a new key to the end of its table", () => {
    const out = replaceRows(
      SAMPLE,
      [
        { key: "build-10k-full", table: "Builds", what: "10k, full build, default options", figure: "**0.8 s, 150 MB**" },
        { key: "rebuild-10k-unchanged", table: "Builds", what: "10k, rebuild, nothing changed", figure: "**0.5 s | 120 MB**" },
      ],
      STAMP,
    );
    const before = SAMPLE.split("\n");
    const after = out.split("\n");
    expect(after).toHaveLength(before.length + 1);
    const replaced = after.findIndex((l) => keyOf(l) === "build-10k-full");
    const added = after.findIndex((l) => keyOf(l) === "rebuild-10k-unchanged");
    expect(replaced).toBe(before.findIndex((l) => keyOf(l) === "build-10k-full"));
    // The new row closes the Builds table, before the commentary.
    expect(added).toBe(replaced + 1);
    expect(after[added + 1]).toBe("");
    expect(after[added + 2]).toBe("Commentary under the table.");
    // Every other line as it was.
    expect(after.filter((_, i) => i !== replaced && i !== added)).toEqual(before.filter((_, i) => i !== replaced));
    expect(after[replaced]).toBe(
      "| 10k, full build, default options | **0.8 s, 150 MB** | 2026-11-26 00:01 | abc1234+dirty | AMD EPYC 7B13, 2 cores, 24 GB, Node v20.20.2 | 2.1–3.4 | " +
        "`npm run bench -- --sizes 10k --write` | [Run of 2026-11-26 00:01:02 UTC](docs/benchmarks-history.md#run-of-2026-11-26-000102-utc) | `build-10k-full` |",
    );
    // A pipe in a figure is escaped, so the row keeps its columns.
    expect(after[added]).toContain("| **0.5 s \\| 120 MB** |");
    expect(after[added]?.split(/(?<!\\)\|/)).toHaveLength(HEADER.split("|").length);
  });

  it("refuses a key it could not find again", () => {
    expect(() => replaceRows(SAMPLE, [{ key: "feed-2,000-full", table: "Builds", what: "x", figure: "y" }], STAMP)).toThrow(/row key/);
  });

  it("puts a key of a table that does not exist yet into a new table at the end", () => {
    const out = replaceRows(
      SAMPLE,
      [{ key: "feed-1m-full", table: "The change feed", what: "1M, with the feed", figure: "**10 s**" }],
      STAMP,
    );
    expect(out.startsWith(SAMPLE.trimEnd())).toBe(true);
    const tail = out.slice(SAMPLE.trimEnd().length).split("\n");
    expect(tail.slice(0, 5)).toEqual(["", "", "## The change feed", "", HEADER]);
    expect(keyOf(tail[6] ?? "")).toBe("feed-1m-full");
  });

  it("replaces a row twice in place: a second run leaves the first run's other rows alone", () => {
    const first = replaceRows(SAMPLE, [{ key: "startup-help", table: "Start-up", what: "`subjekti --help`", figure: "**70 ms**" }], STAMP);
    const second = replaceRows(first, [{ key: "build-1m-full", table: "Builds", what: "1M, full build", figure: "**9 s**" }], {
      ...STAMP,
      time: "2026-11-26 00:09:00",
    });
    expect(second.split("\n").find((l) => keyOf(l) === "startup-help")).toContain("**70 ms**");
    expect(second.split("\n").find((l) => keyOf(l) === "build-1m-full")).toContain("2026-11-26 00:09");
    expect(second.split("\n").filter((l) => l.includes("by hand"))).toEqual(SAMPLE.split("\n").filter((l) => l.includes("by hand")));
  });

  it("writes both files: the table, and the run's printed output under a dated heading the rows link to", async () => {
    const root = dir.path;
    await mkdir(join(root, "docs"), { recursive: true });
    await writeFile(join(root, TABLE_FILE), SAMPLE);
    await writeFile(join(root, HISTORY_FILE), "# Benchmark history\n\n## An older run\n\nits output\n");
    const output = "## Benchmark 2026-11-26 00:00 UTC\n\n| set | wall |\n|---|--:|\n| 10k | 0.8 s |\n";
    await writeRun(root, [{ key: "build-10k-full", table: "Builds", what: "10k", figure: "**0.8 s**" }], STAMP, output);
    const history = await readFile(join(root, HISTORY_FILE), "utf8");
    expect(history.startsWith("# Benchmark history\n\n## An older run\n\nits output\n\n## Run of 2026-11-26 00:01:02 UTC\n")).toBe(true);
    expect(history).toContain("- command: `npm run bench -- --sizes 10k --write`");
    expect(history).toContain("`build-10k-full`");
    // The run's own headings one level down, under the run's; its table as printed.
    expect(history).toContain("\n### Benchmark 2026-11-26 00:00 UTC\n\n| set | wall |\n|---|--:|\n| 10k | 0.8 s |\n");
    const table = await readFile(join(root, TABLE_FILE), "utf8");
    const link = /\(docs\/benchmarks-history\.md#([^)]+)\)/.exec(table.split("\n").find((l) => keyOf(l) === "build-10k-full") ?? "")?.[1];
    expect(link).toBe(anchorOf("Run of 2026-11-26 00:01:02 UTC"));
  });

  it("names the command as it was run", () => {
    const argv = ["/usr/bin/node", "/repo/scripts/bench.ts", "build", "--sizes", "10k", "--data", "a b", "--write"];
    expect(commandLine(argv, { npm_lifecycle_event: "bench", npm_lifecycle_script: "tsx scripts/bench.ts" }, "/repo")).toBe(
      "npm run bench -- build --sizes 10k --data 'a b' --write",
    );
    expect(commandLine(argv.slice(0, 2), {}, "/repo")).toBe("npx tsx scripts/bench.ts");
  });

  it("a run is quiet when the load at its start is under 2 and other processes kept under a quarter of a core busy", () => {
    expect([1.99, 2, 14.5].map((load) => quietness(load, 0.01))).toEqual(["", " (not quiet)", " (not quiet)"]);
    expect([0.24, 0.25, 1.3, null].map((others) => quietness(0.3, others))).toEqual(["", " (not quiet)", " (not quiet)", " (not quiet)"]);
    expect(loadCell(0.84, 0.031)).toBe("0.8, others 0.03 cores");
    expect(loadCell(2.5, null)).toBe("2.5, others unknown (not quiet)");
    // The one rule the rows are marked by and the harness waits for (scripts/bench/wait-quiet.ts).
    expect([isQuiet(1.99, 0.24), isQuiet(2, 0), isQuiet(0, 0.25), isQuiet(0, null)]).toEqual([true, false, false, false]);
  });

  it("others' cores: the machine's busy time less the run's own, over the wall", () => {
    const start = { at: 0, load: 0.5, busy: 1_000, own: 50 };
    // 10 s: the machine busy 1,600 ticks (16 s of CPU), the run 1,500 of them: 1 s of others' CPU, 0.1 core.
    expect(othersCores(start, { at: 10_000, load: 3, busy: 2_600, own: 1_550 })).toBeCloseTo(0.1, 6);
    expect(othersCores(start, null)).toBeNull();
    expect(othersCores(null, start)).toBeNull();
  });

  it("reads the machine's work from /proc on Linux, and its own CPU grows with its work", () => {
    const before = machineWork();
    if (process.platform !== "linux") return expect(before).toBeNull();
    // Spun until this process has used 50 ms more CPU by its own count, however loaded the machine.
    const used = process.cpuUsage();
    let spin = 0;
    while (process.cpuUsage(used).user < 50_000) spin += Math.sqrt(spin + 1);
    const after = machineWork();
    expect(spin).toBeGreaterThan(0);
    expect(after?.own).toBeGreaterThan(before?.own ?? Infinity);
    expect(after?.busy).toBeGreaterThan(before?.busy ?? Infinity);
  });
});
