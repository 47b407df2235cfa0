/**
 * `subjekti build --json`: one JSON report on stdout, and on a rebuild after a one-record edit
 * exactly the public URLs whose bytes changed and the one records chunk's cache tag, which the
 * router puts on exactly the answers that show a record of that chunk.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { route } from "../../src/core/route.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { readManifest } from "./built-site.ts";

const BASE = "https://subjekti.example";
const SAMPLE = join(import.meta.dirname, "../../data/subjekti.json");
let root: string;
beforeAll(async () => {
  root = await tempDir("subjekti-json-");
});
afterAll(() => rm(root, { recursive: true, force: true }));

interface JsonReport {
  count: number;
  written: number;
  timings: { read: number; write: number };
  warnings: { severity: string; file: string; field?: string; message: string }[];
  notes: { key: string; message: string }[];
  changed: { urls: string[]; urlsLeftOut: number; tags: string[] };
}

/** A site of its own: a copy of the sample, an output and a build cache. */
async function freshSite(name: string, limits = "20,100"): Promise<{ data: string; out: string; buildJson(): Promise<JsonReport> }> {
  const data = join(root, name, "data");
  const out = join(root, name, "site");
  await mkdir(data, { recursive: true });
  await writeFile(join(data, "subjekti.json"), await readFile(SAMPLE));
  const buildJson = async (): Promise<JsonReport> => {
    // In this process, through the CLI's main as bin/subjekti.js runs it, with this process's
    // environment as a child would have it (the data's date included): the report is the command's
    // stdout either way, and test/cli/compiled-cli.slow.test.ts runs the shipped CLI as a process.
    const args = ["build", "--json", "--data", data, "--out", out, "--base-url", BASE, "--limits", limits, "--forms", "plain,api"];
    const run = await runCli([...args, "--cache-dir", `${out}.cache`], {
      ...process.env,
      SOURCE_DATE_EPOCH: process.env["SOURCE_DATE_EPOCH"],
    });
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as JsonReport;
  };
  return { data, out, buildJson };
}

/** The first build of a fresh copy, made once for the tests that start from it (whichever runs first: each still runs alone with -t). */
let firstBuild: Promise<{ site: Awaited<ReturnType<typeof freshSite>>; report: JsonReport }> | undefined;
const builtOnce = (): NonNullable<typeof firstBuild> =>
  (firstBuild ??= freshSite("first").then(async (site) => ({ site, report: await site.buildJson() })));

describe("subjekti build --json", () => {
  it("a first build: the counts, the warnings as objects, the build's own warnings, timings, every URL and the site's tag", async () => {
    const first = (await builtOnce()).report;
    expect(first.count).toBe(5758);
    expect(first.warnings.length).toBeGreaterThan(0);
    expect(first.warnings[0]).toMatchObject({
      severity: "warning",
      field: "oib",
      message: expect.stringMatching(/^.*subjekti\.json\[\d+\]: warning: oib: /),
    });
    // The sample declares no licence (no datapackage.json beside it): the build's own warning, by its key and line.
    expect(first.notes).toEqual([{ key: "warning.no-licence", message: expect.stringMatching(/^no licence is declared: /) }]);
    expect(first.timings.read).toBeGreaterThan(0);
    expect(first.changed.tags).toContain("subjekti");
    expect(first.changed.urls).toContain(`${BASE}/api/subjekti/`);
    expect(first.changed.urls).toContain(`${BASE}/api/subjekti/?format=api&limit=100&offset=5700`);
    expect(first.changed.urls).toContain(`${BASE}/openapi.json`);
    // Both forms, both limits, every page; page 0 of limit 20 also by its bare URL.
    expect(first.changed.urls).toHaveLength(2 * (Math.ceil(5758 / 20) + Math.ceil(5758 / 100)) + 2 + 8);
    expect(first.changed.urlsLeftOut).toBe(0);
  });

  it("more URLs changed than the report lists (pages of one subject): the first 10,000 in sorted order, the rest counted", async () => {
    const { changed } = await (await freshSite("many", "1")).buildJson();
    // Both forms' 5,758 pages, and the 8 descriptions.
    const all = 2 * 5758 + 8;
    expect(changed.urls).toHaveLength(10_000);
    expect(changed.urlsLeftOut).toBe(all - 10_000);
    expect(changed.urls).toEqual(changed.urls.toSorted());
    // The smallest URLs are listed: the landing page, then the api form's first page and the offsets that sort first; the
    // other descriptions sort after every page.
    expect(changed.urls.slice(0, 4)).toEqual([
      `${BASE}/`,
      `${BASE}/api/subjekti/?format=api&limit=1`,
      `${BASE}/api/subjekti/?format=api&limit=1&offset=1`,
      `${BASE}/api/subjekti/?format=api&limit=1&offset=10`,
    ]);
    expect(changed.urls).not.toContain(`${BASE}/openapi.json`);
    expect(changed.tags).toContain("subjekti");
  });

  it("a rebuild after editing one record: exactly the four pages that show it and its chunk's tag", async () => {
    const { data, out, buildJson } = await freshSite("edited");
    await buildJson();
    const records = JSON.parse(await readFile(join(data, "subjekti.json"), "utf8")) as { id: number; naziv_subjekta: string }[];
    const sorted = records.toSorted((a, b) => a.id - b.id);
    const position = 3456;
    const edited = sorted[position];
    if (edited === undefined) throw new Error("the sample is shorter than expected");
    edited.naziv_subjekta += " (renamed)";
    await writeFile(join(data, "subjekti.json"), JSON.stringify(records, null, 2));

    const report = await buildJson();
    // The four pages, and the descriptions that name the downloads' hashes (the landing page, the data package, the catalogue).
    expect(report.changed).toEqual({
      urlsLeftOut: 0,
      urls: [
        `${BASE}/`,
        `${BASE}/api/subjekti/?format=api&limit=100&offset=3400`,
        `${BASE}/api/subjekti/?format=api&limit=20&offset=3440`,
        `${BASE}/api/subjekti/?limit=100&offset=3400`,
        `${BASE}/api/subjekti/?limit=20&offset=3440`,
        `${BASE}/catalog.jsonld`,
        `${BASE}/catalog.ttl`,
        `${BASE}/datapackage.json`,
      ],
      tags: ["subjekti-chunk-3", "subjekti-docs"],
    });
    // Those four pages and their shards' tag lists, the chunk file and its offsets, the manifest (which is no answer), the four
    // descriptions and the docs' tag list; not the OIB index, whose lines name places in the list, which a renamed record
    // does not move. Then 20 search files, those that hold the record (the buckets of its pieces and tokens, the suffix
    // files of its suffixes, the name's order files).
    expect(report.written).toBe(16 + 20);

    // The tag is on exactly the answers that show a record of chunk 3, pre-rendered or derived, on any origin.
    const manifest = await readManifest(out);
    const tags = (query: string, baseUrl = BASE): string => {
      const decision = route({ method: "GET", path: "/api/subjekti/", query, baseUrl }, manifest);
      return "headers" in decision ? (new Map(decision.headers).get("Netlify-Cache-Tag") ?? "") : "";
    };
    expect(tags("limit=20&offset=3440")).toBe("subjekti,subjekti-chunk-3");
    expect(tags("limit=20&offset=3440", "https://deploy-preview-1--subjekti.netlify.app")).toBe("subjekti,subjekti-chunk-3");
    expect(tags("limit=7&offset=2995")).toBe("subjekti,subjekti-chunk-2,subjekti-chunk-3");
    expect(tags("limit=20&offset=2980")).toBe("subjekti,subjekti-chunk-2");
  });

  it("a rebuild of unchanged data: nothing changed", async () => {
    // The first test's site, built again.
    const { buildJson } = (await builtOnce()).site;
    expect((await buildJson()).changed).toEqual({ urls: [], urlsLeftOut: 0, tags: [] });
  });
});
