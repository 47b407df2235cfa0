/**
 * The crawlers' stage's memory bound: the sitemap is written a part (50,000 URLs) at a time, so
 * a million ids peak at about the RSS of 200,000. The sizes are the test (holding every URL at
 * once, as the stage once did, adds some 230 MB from 200,000 to a million) and so is the process: a child of its own
 * reports its peak RSS. `npm test` runs it, the fast rings leave it out.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/** The child's own peak (VmHWM: getrusage's maxRSS keeps the forked parent's from before exec). */
const PEAK = new URL("../../feed/report-usage.mjs", import.meta.url).href;

const run = promisify(execFile);
const STAGE = new URL("./crawl-files-in-a-row.ts", import.meta.url).href;

/** Chunk files of `count` records, 1,000 a chunk, ids 1, 2, 3, … */
async function chunks(dir: string, count: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  const n = Math.ceil(count / 1000);
  for (let c = 0; c < n; c++) {
    let text = "";
    for (let i = c * 1000; i < Math.min(count, (c + 1) * 1000); i++) text += `{"id":${i + 1},"naziv_subjekta":"x"}\n`;
    await writeFile(join(dir, `${c}.ndjson`), text);
  }
  return n;
}

describe("the sitemap written part by part", () => {
  it("memory stays flat: a million ids peak at about the RSS of 200,000", async () => {
    const root = await mkdtemp(join(tmpdir(), "crawl-rss-"));
    // The child writes the crawlers' files from chunk files written here, then reports its own peak RSS (KB).
    const peak = async (count: number): Promise<number> => {
      const dir = join(root, `chunks-${count}`);
      const n = await chunks(dir, count);
      const out = join(root, `out-${count}`);
      await mkdir(out);
      const code = `const { writeCrawlFiles } = await import(${JSON.stringify(STAGE)});
        await writeCrawlFiles(${JSON.stringify(out)}, { baseUrl: "https://subjekti.example", chunks: ${n}, chunkPath: (c) => ${JSON.stringify(dir)} + "/" + c + ".ndjson" });
        const { peakRssBytes } = await import(${JSON.stringify(PEAK)});
        process.stdout.write(String(peakRssBytes() / 1024));`;
      const { stdout } = await run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code]);
      return Number(stdout) / 1024;
    };
    try {
      const small = await peak(200_000);
      const large = await peak(1_000_000);
      // Every URL held at once adds some 230 MB; a part at a time, both hold one part (60 allows for a late GC under load).
      expect(large - small, `peak RSS ${small.toFixed(0)} MB -> ${large.toFixed(0)} MB`).toBeLessThan(60);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
