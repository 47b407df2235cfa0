/**
 * The generator's memory bound: 200k records written by a process of its own peak at about the
 * RSS of 20k, so a benchmark's million records are never held. The sizes are the test (a bound on
 * memory shows only at a size where holding the records would be seen), and so is the process (its
 * own peak RSS): `npm test` runs it, the fast rings (`npm run test:unit`) leave it out.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** The child's own peak (VmHWM: getrusage's maxRSS keeps the forked parent's from before exec). */
const PEAK = new URL("../feed/report-usage.mjs", import.meta.url).href;

const run = promisify(execFile);
const SCRIPT = "scripts/generate-subjects.ts";

describe("streaming", () => {
  it("memory stays flat: 200k records peak at about the RSS of 20k", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gen-rss-"));
    // The child reports its own peak RSS after writing the file (report-usage.mjs peakRssBytes, in KB).
    const peak = async (count: number): Promise<number> => {
      const code = `const m = await import(${JSON.stringify(new URL(`../../${SCRIPT}`, import.meta.url).href)});
        await m.generateFile({ count: ${count}, seed: "rss", format: "json" }, ${JSON.stringify(join(dir, `${count}.json`))});
        const { peakRssBytes } = await import(${JSON.stringify(PEAK)});
        process.stdout.write(String(peakRssBytes() / 1024));`;
      const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code]);
      return Number(stdout) / 1024;
    };
    try {
      const small = await peak(20_000);
      const large = await peak(200_000);
      // 200k records are ~66 MB of JSON; holding them would add well over 100 MB.
      // 50, not 30: under load GC runs later, and 30 was once missed by 0.04 MB (holding would be 100+).
      expect(large - small, `peak RSS ${small.toFixed(0)} MB -> ${large.toFixed(0)} MB`).toBeLessThan(50);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // A bound on two generator processes, which end: 30 s of the default 60 beside another slow file at load 7-11.
  }, 180_000);
});
