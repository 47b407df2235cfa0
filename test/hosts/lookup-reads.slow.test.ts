/**
 * What a lookup reads through a CDN-backed host (`cdnSite`): by id and by code, the chunk's table
 * of offsets and keys and the record's bytes alone, never the records chunk; by OIB, its index
 * file and the record's bytes it names. A platform that answers every Range with the
 * whole file gives the same bytes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSubject } from "../../scripts/generate-subjects.ts";
import { answerFetch } from "../../src/core/answer-request.ts";
import { cdnSite, ManifestCache } from "../../src/core/cdn-site.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { BASE, buildSubjectsSite } from "./fixture-site.ts";

/** Three records chunks, the last one short. */
const SUBJECTS: readonly Subject[] = Array.from({ length: 2500 }, (_, i) => makeSubject(3, i));

interface Read {
  readonly path: string;
  readonly bytes: number;
}

let dir = "";
let remove: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  ({ dir, remove } = await buildSubjectsSite("subjekti-lookup-reads-", SUBJECTS));
}, 60_000);

afterAll(() => remove());

/** A host over the built files that logs every read; `ranges` false answers a Range with the whole file, as workerd's assets do. */
function host(ranges: boolean): { send(target: string): Promise<{ status: number; body: string }>; reads: Read[] } {
  const reads: Read[] = [];
  const fetchFile = async (path: string, range?: { start: number; end: number }): Promise<Response> => {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(dir, path));
    } catch {
      return new Response("Not Found", { status: 404 });
    }
    if (ranges && range !== undefined) {
      const end = Math.min(range.end, bytes.length);
      reads.push({ path, bytes: end - range.start });
      const headers = { "Content-Range": `bytes ${range.start}-${end - 1}/${bytes.length}` };
      return new Response(bytes.subarray(range.start, end) as Uint8Array<ArrayBuffer>, { status: 206, headers });
    }
    reads.push({ path, bytes: bytes.length });
    return new Response(bytes as Uint8Array<ArrayBuffer>);
  };
  // One instance: its cache lives across requests, and each request gets its site, as the edge and the Worker do.
  const manifests = new ManifestCache();
  return {
    reads,
    async send(target) {
      const site = cdnSite(fetchFile, () => fetchFile("index.html"), manifests);
      const response = await answerFetch(new Request(`${BASE}${target}`), site);
      return { status: response.status, body: await response.text() };
    },
  };
}

const subject = SUBJECTS[1234] as Subject;
const TARGETS = {
  id: `/api/subjekti/${subject.id}/`,
  code: `/api/subjekti/?jedinstvena_oznaka=${subject.jedinstvena_oznaka}`,
  oib: `/api/subjekti/?oib=${subject.oib}`,
  "the last subject's id": `/api/subjekti/${(SUBJECTS.at(-1) as Subject).id}/`,
  "an id no subject has": `/api/subjekti/${(SUBJECTS.at(-1) as Subject).id + 1}/`,
  "a code of the subject's value, other zeros": `/api/subjekti/?jedinstvena_oznaka=0${subject.jedinstvena_oznaka}`,
};

describe("a lookup on a host that reads ranges", () => {
  /** What `target` reads once the instance is warm (its manifest and the bounds kept). */
  const readsOf = async (target: string): Promise<Read[]> => {
    const site = host(true);
    await site.send(target);
    site.reads.length = 0;
    await site.send(target);
    return site.reads.map(({ path, bytes }) => ({ path: path.replace(/\.[0-9a-f]{16}\//, "/"), bytes }));
  };
  const record = Buffer.byteLength(JSON.stringify(subject)) + 1;

  it.each([["id"], ["code"]] as const)("by %s: the chunk's table and the record's bytes (no chunk)", async (key) => {
    const reads = await readsOf(TARGETS[key]);
    expect(reads.map(({ path }) => path)).toEqual(["_subjekti/records/0/1.offsets", "_subjekti/records/0/1.ndjson"]);
    // The table: 1,001 offsets, 1,000 ids and 1,000 codes' values.
    expect(reads[0]?.bytes).toBe(4 * 1001 + 8 * 1000 + 1000 * String(Number((SUBJECTS[1999] as Subject).jedinstvena_oznaka)).length);
    expect(reads[1]?.bytes).toBe(record);
  });

  it("by OIB: its index file, the record's two offsets and the record's bytes, three small reads", async () => {
    const reads = await readsOf(TARGETS.oib);
    expect(reads.map(({ path }) => path.replace(/\/[0-9]+\.txt$/, "/<prefix>.txt"))).toEqual([
      "_subjekti/oib/0/<prefix>.txt",
      "_subjekti/records/0/1.offsets",
      "_subjekti/records/0/1.ndjson",
    ]);
    // The index file of the OIB's first digit (2,500 subjects: ten files) names the subject's place, a line of the OIB and the
    // place (11 + 1 + 4 digits + "\n"); the record's two offsets in the table (eight bytes) name its line, read as by id.
    expect(reads[0]?.bytes).toBe(SUBJECTS.filter(({ oib }) => oib[0] === subject.oib[0]).length * 17);
    expect(reads[1]?.bytes).toBe(8);
    expect(reads[2]?.bytes).toBe(record);
  });

  it("no lookup reads a records chunk whole", async () => {
    for (const target of Object.values(TARGETS)) {
      for (const { path, bytes } of await readsOf(target)) if (path.endsWith(".ndjson")) expect(bytes).toBeLessThan(1000);
    }
  });
});

describe("a host that answers a Range with the whole file", () => {
  it.each(Object.entries(TARGETS))("gives the same answer (%s)", async (_, target) => {
    const [ranges, whole] = [host(true), host(false)];
    const answer = await ranges.send(target);
    expect(await whole.send(target)).toEqual(answer);
    expect(await whole.send(target)).toEqual(answer);
    expect(answer.status).toBe(target.includes(String((SUBJECTS.at(-1) as Subject).id + 1)) ? 404 : 200);
    if (target === TARGETS.id) expect(answer.body).toBe(JSON.stringify(subject));
  });
});

describe("an instance on a platform that serves no ranges keeps the chunks it read whole", () => {
  const chunkReads = (reads: readonly Read[]): string[] => reads.filter(({ path }) => path.endsWith(".ndjson")).map(({ path }) => path);
  const PAGES = ["/api/subjekti/?limit=1000&offset=500", "/api/subjekti/?limit=1000&offset=700", `/api/subjekti/${subject.id}/`];

  it("each chunk is read once for every page and subject that needs it, and the answers are the ranged host's", async () => {
    const [ranges, whole] = [host(true), host(false)];
    for (const target of PAGES) {
      const answer = await whole.send(target);
      expect(answer).toEqual(await ranges.send(target));
      expect(answer.status).toBe(200);
    }
    // The first page reads its two chunks, learning that ranges are not served; then none is read again.
    const reads = chunkReads(whole.reads);
    expect(new Set(reads).size).toBe(2);
    const firstPage = reads.length;
    whole.reads.length = 0;
    for (const target of [...PAGES, ...PAGES]) await whole.send(target);
    expect(chunkReads(whole.reads)).toEqual([]);
    expect(firstPage).toBe(2);
  });

  it("a subject's answer is its own bytes, not a view of a kept chunk: the next answer is unchanged after one is consumed", async () => {
    const whole = host(false);
    await whole.send(PAGES[0] as string);
    const first = await whole.send(PAGES[2] as string);
    const again = await whole.send(PAGES[2] as string);
    expect(again).toEqual(first);
    expect(first.body).toBe(JSON.stringify(subject));
  });
});
