/**
 * The registry for portals and downloads, as the build writes it for the sample data: the
 * downloads read back (NDJSON line by line, the CSV by a CSV library, the workbook by the build's
 * own reader), each hash the manifest's; datapackage.json valid against the published Frictionless
 * JSON Schema; the DCAT-AP catalogue through the official SHACL shapes with zero violations, and
 * the same graph from its Turtle and its JSON-LD; the landing page's schema.org Dataset against
 * Google's documented properties; two builds byte-identical under SOURCE_DATE_EPOCH.
 */
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { Parser, Store, type Quad } from "n3";
import SHACLValidator from "rdf-validate-shacl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGLISH } from "../../../src/common/messages/translate.ts";
import { DOWNLOAD_KINDS, type Download } from "../../../src/core/download-files.ts";
import { FIELD_NAMES } from "../../../src/data/rules/subject-fields.ts";
import type { BuildReport } from "../../../src/site/build-site.ts";
import { BASE_URL, build, readManifest } from "../built-site.ts";
import { jsonLdQuads, tripleSet } from "./rdf-quads.ts";

const SAMPLE = join(import.meta.dirname, "../../../data");
const SHAPES = join(import.meta.dirname, "../../fixtures/dcat-ap");
const EPOCH = "1700000000";

let dir: string;
let out: string;
let downloads: readonly Download[];
let count: number;

const published = (path: string): Promise<Buffer> => readFile(join(out, "_subjekti", `docs.${manifestDocs}`, path));
let manifestDocs = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "subjekti-open-data-"));
  out = join(dir, "site");
  const report = await build(SAMPLE, out, { downloads: ["ndjson", "csv", "xlsx"], sourceDateEpoch: EPOCH, feed: true });
  const manifest = await readManifest(out);
  downloads = manifest.downloads ?? [];
  count = manifest.count;
  manifestDocs = manifest.dirs["docs"] ?? "";
  expect(report.downloads).toEqual(downloads);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("the downloads", () => {
  it("are NDJSON, CSV and the workbook, at stable and content-named paths of the same bytes, each hash and size the manifest's", async () => {
    expect(downloads.map((d) => [d.format, d.path])).toEqual([
      ["ndjson", "/downloads/subjekti.ndjson"],
      ["csv", "/downloads/subjekti.csv"],
      ["xlsx", "/downloads/subjekti.xlsx"],
    ]);
    for (const d of downloads) {
      const stable = await readFile(join(out, d.path));
      const named = await readFile(join(out, d.immutablePath));
      expect(sha256(stable), d.path).toBe(d.sha256);
      expect(stable.length).toBe(d.bytes);
      expect(named.equals(stable)).toBe(true);
      expect(d.immutablePath).toBe(`/downloads/subjekti-${d.sha256}.${DOWNLOAD_KINDS[d.format].extension}`);
    }
  });

  it("the NDJSON is the change feed's snapshot, byte for byte: count lines of ten fields in id order", async () => {
    const ndjson = await readFile(join(out, "downloads/subjekti.ndjson"));
    const snapshots = await readdir(join(out, "changes/snapshots"));
    expect(snapshots).toEqual([`${sha256(ndjson)}.ndjson`]);
    const lines = ndjson.toString("utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(count);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(Object.keys(records[0] ?? {})).toEqual(FIELD_NAMES);
    expect(records.every((r, i) => i === 0 || (r["id"] as number) > (records[i - 1]?.["id"] as number))).toBe(true);
  });

  it("the CSV parsed by csv-parse: a header of the ten fields, then count rows equal to the NDJSON's records", async () => {
    const ndjson = (await readFile(join(out, "downloads/subjekti.ndjson"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const rows = parseCsv(await readFile(join(out, "downloads/subjekti.csv")), {
      delimiter: ";",
      bom: true,
      record_delimiter: "\r\n",
    }) as string[][];
    expect(rows[0]).toEqual(FIELD_NAMES);
    expect(rows.length - 1).toBe(count);
    for (const [i, row] of rows.slice(1).entries()) {
      expect(row, `row ${i + 1}`).toEqual(FIELD_NAMES.map((f) => String(ndjson[i]?.[f])));
    }
  });

  it("the workbook, read back as a source by the build, gives the same list: the same NDJSON to the byte", async () => {
    const data = join(dir, "from-workbook");
    await cp(join(out, "downloads/subjekti.xlsx"), join(data, "subjekti.xlsx"));
    const report = await build(data, join(dir, "from-workbook-site"), { cacheDir: null, downloads: ["ndjson"] });
    expect(report.count).toBe(count);
    const [read, written] = await Promise.all([
      readFile(join(dir, "from-workbook-site/downloads/subjekti.ndjson")),
      readFile(join(out, "downloads/subjekti.ndjson")),
    ]);
    // Buffer.equals: toEqual on 2 MB Buffers walks them element by element (seconds). A difference is shown as text.
    if (!read.equals(written)) expect(read.toString("utf8")).toBe(written.toString("utf8"));
    expect(read.equals(written)).toBe(true);
  }, 60_000);

  it("a rebuild of the same records takes the NDJSON and CSV as they are, writes one cut short again, and writes new ones for an edit", async () => {
    const site = join(dir, "rebuilt");
    const options = { downloads: ["ndjson", "csv"] as const, sourceDateEpoch: EPOCH };
    const first = await build(SAMPLE, site, { ...options, downloads: [...options.downloads] });
    const files = (report: BuildReport): string[] => report.downloads.map((d) => join(site, d.immutablePath));
    const stamps = async (report: BuildReport): Promise<string[]> =>
      Promise.all(files(report).map(async (path) => `${(await stat(path)).ino}:${(await stat(path)).mtimeMs}`));
    const before = await stamps(first);
    const again = await build(SAMPLE, site, { ...options, downloads: [...options.downloads] });
    expect(again.downloads).toEqual(first.downloads);
    expect(await stamps(again)).toEqual(before);
    // A content-named file cut short (a copy interrupted) is not taken: it is written whole again.
    const csv = first.downloads.find((d) => d.format === "csv") as Download;
    await truncate(join(site, csv.immutablePath), 10);
    const mended = await build(SAMPLE, site, { ...options, downloads: [...options.downloads] });
    expect(mended.downloads).toEqual(first.downloads);
    expect(sha256(await readFile(join(site, csv.path)))).toBe(csv.sha256);
    // One record renamed: both downloads are new.
    const edited = join(dir, "edited-data");
    const records = JSON.parse(await readFile(join(SAMPLE, "subjekti.json"), "utf8")) as { naziv_subjekta: string }[];
    (records[7] as { naziv_subjekta: string }).naziv_subjekta += " (preimenovano)";
    await mkdir(edited, { recursive: true });
    await writeFile(join(edited, "subjekti.json"), JSON.stringify(records));
    const renamed = await build(edited, site, { ...options, downloads: [...options.downloads] });
    for (const [i, d] of renamed.downloads.entries()) {
      expect(d.sha256, d.format).not.toBe(first.downloads[i]?.sha256);
      expect(sha256(await readFile(join(site, d.path))), d.format).toBe(d.sha256);
    }
  }, 120_000);

  it("two builds of the same data with SOURCE_DATE_EPOCH are byte-identical (downloads and descriptions included)", async () => {
    const again = join(dir, "again");
    await build(SAMPLE, again, { downloads: ["ndjson", "csv", "xlsx"], sourceDateEpoch: EPOCH, feed: true, cacheDir: null });
    const tree = async (root: string): Promise<Map<string, string>> => {
      const files = new Map<string, string>();
      for (const name of (await readdir(root, { recursive: true, withFileTypes: true })).filter((e) => e.isFile())) {
        const path = join(name.parentPath, name.name);
        files.set(path.slice(root.length), sha256(await readFile(path)));
      }
      return files;
    };
    expect(await tree(again)).toEqual(await tree(out));
  }, 120_000);

  it("a build without data/datapackage.json warns that no licence is declared", async () => {
    const data = join(dir, "bare");
    await cp(join(SAMPLE, "subjekti.json"), join(data, "subjekti.json"), { recursive: true });
    const report = await build(data, join(dir, "bare-site"), { cacheDir: null });
    expect(report.notes.map((note) => ENGLISH.say(note)).join("\n")).toMatch(/no licence is declared/);
    const described = await build(SAMPLE, join(dir, "described"), { cacheDir: null });
    expect(described.notes).toEqual([]);
  }, 60_000);
});

describe("datapackage.json", () => {
  it("is valid against the published Frictionless Data Package 2.0 JSON Schema", async () => {
    const descriptor = JSON.parse((await published("datapackage.json")).toString("utf8")) as Record<string, unknown>;
    const schema = JSON.parse(await readFile(join(import.meta.dirname, "../../fixtures/frictionless/datapackage.json"), "utf8")) as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    expect(validate(descriptor), JSON.stringify(validate.errors, null, 1)).toBe(true);
    // A mutation the schema must refuse: the check is real.
    expect(validate({ ...descriptor, resources: [{ name: "Not A Name!", path: 3 }] })).toBe(false);
  });

  it("names each download with its bytes and hash, the licence and sources of data/datapackage.json, and the Table Schema of the ten fields", async () => {
    const descriptor = JSON.parse((await published("datapackage.json")).toString("utf8")) as {
      licenses: { path: string }[];
      sources: unknown[];
      resources: {
        path: string;
        bytes: number;
        hash: string;
        schema: { fields: { name: string; type: string; constraints: Record<string, unknown> }[]; primaryKey: string[] };
      }[];
    };
    const own = JSON.parse(await readFile(join(SAMPLE, "datapackage.json"), "utf8")) as { licenses: unknown[]; sources: unknown[] };
    expect(descriptor.licenses).toEqual(own.licenses);
    expect(descriptor.sources).toEqual(own.sources);
    expect(descriptor.resources.map((r) => [r.path, r.bytes, r.hash])).toEqual(
      downloads.map((d) => [d.path.slice(1), d.bytes, `sha256:${d.sha256}`]),
    );
    const fields = descriptor.resources[0]?.schema.fields ?? [];
    expect(fields.map((f) => f.name)).toEqual(FIELD_NAMES);
    expect(Object.fromEntries(fields.map((f) => [f.name, f.type]))).toMatchObject({
      id: "integer",
      oib: "string",
      datum_postanka: "date",
      odobreno: "boolean",
    });
    expect(fields.find((f) => f.name === "oib")?.constraints).toMatchObject({ required: true, pattern: "[0-9]{11}" });
    expect(fields.find((f) => f.name === "id")?.constraints).toMatchObject({ required: true, unique: true, minimum: 1 });
  });
});

/** A graph's triples as N-Triples-like strings (every node an IRI: no blank node to relabel). */
async function shapes(): Promise<Store> {
  const store = new Store();
  for (const name of ["shapes.ttl", "shapes_recommended.ttl", "range.ttl", "mdr-vocabularies.shape.ttl"]) {
    store.addQuads(new Parser().parse(await readFile(join(SHAPES, name), "utf8")));
  }
  return store;
}

describe("the DCAT-AP 3.0.1 catalogue", () => {
  let turtle: Quad[];

  beforeAll(async () => {
    turtle = new Parser().parse((await published("catalog.ttl")).toString("utf8"));
  });

  it("passes the official shapes (mandatory, recommended, ranges, controlled vocabularies) with zero violations", async () => {
    const validator = new SHACLValidator(await shapes());
    const report = await validator.validate(new Store(turtle));
    const violations = report.results.map(
      (r) => `${r.severity?.value.split("#")[1]}: ${r.focusNode?.value} ${r.path?.value}: ${r.message.map((m) => m.value).join(" ")}`,
    );
    expect(violations.filter((v) => v.startsWith("Violation"))).toEqual([]);
    // What remains are warnings: recommended properties left out (dct:temporal, dcatap:availability, …).
    expect(violations.every((v) => v.startsWith("Warning"))).toBe(true);
  });

  it("fails the shapes when a mandatory property is gone (the check can fail)", async () => {
    const validator = new SHACLValidator(await shapes());
    const without = turtle.filter((q) => !(q.predicate.value === "http://www.w3.org/ns/dcat#accessURL"));
    const report = await validator.validate(new Store(without));
    expect(report.conforms).toBe(false);
  });

  it("its JSON-LD is the same graph as its Turtle", async () => {
    const jsonld = await jsonLdQuads((await published("catalog.jsonld")).toString("utf8"));
    expect(jsonld.length).toBeGreaterThan(50);
    expect(tripleSet(jsonld)).toEqual(tripleSet(turtle));
  });

  it("names one Catalogue, one Dataset at a stable IRI, a Distribution per download with its size and checksum, and the API's Data Service", () => {
    const of = (predicate: string, object?: string): string[] =>
      turtle
        .filter((q) => q.predicate.value === predicate && (object === undefined || q.object.value === object))
        .map((q) => q.subject.value);
    const TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
    expect(of(TYPE, "http://www.w3.org/ns/dcat#Catalog")).toEqual([`${BASE_URL}/#catalogue`]);
    expect(of(TYPE, "http://www.w3.org/ns/dcat#Dataset")).toEqual([`${BASE_URL}/#dataset`]);
    expect(of(TYPE, "http://www.w3.org/ns/dcat#Distribution")).toHaveLength(downloads.length);
    const values = (predicate: string): string[] => turtle.filter((q) => q.predicate.value === predicate).map((q) => q.object.value);
    expect(values("http://www.w3.org/ns/dcat#byteSize").map(Number).sort()).toEqual(downloads.map((d) => d.bytes).sort());
    expect(values("http://spdx.org/rdf/terms#checksumValue").sort()).toEqual(downloads.map((d) => d.sha256).sort());
    expect(values("http://www.w3.org/ns/dcat#downloadURL").sort()).toEqual(downloads.map((d) => `${BASE_URL}${d.path}`).sort());
    expect(values("http://www.w3.org/ns/dcat#mediaType")).toContain("https://www.iana.org/assignments/media-types/text/csv");
    expect(values("http://purl.org/dc/terms/format")).toContain("http://publications.europa.eu/resource/authority/file-type/CSV");
    // Only types IANA registers (data.europa.eu checks them against its register), named here one by
    // one: NDJSON has none (application/x-ndjson is not registered), so its distribution names its file type alone.
    const REGISTERED = [
      "https://www.iana.org/assignments/media-types/text/csv",
      "https://www.iana.org/assignments/media-types/application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ];
    const EU_FILE_TYPES = ["CSV", "JSON", "XLSX"].map((code) => `http://publications.europa.eu/resource/authority/file-type/${code}`);
    for (const type of values("http://www.w3.org/ns/dcat#mediaType")) expect(REGISTERED, type).toContain(type);
    for (const format of values("http://purl.org/dc/terms/format")) expect(EU_FILE_TYPES, format).toContain(format);
    const ndjson = `${BASE_URL}/#download-ndjson`;
    const about = (subject: string, predicate: string): string[] =>
      turtle.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);
    expect(about(ndjson, "http://www.w3.org/ns/dcat#mediaType")).toEqual([]);
    expect(about(ndjson, "http://purl.org/dc/terms/format")).toEqual(["http://publications.europa.eu/resource/authority/file-type/JSON"]);
    expect(values("http://www.w3.org/ns/dcat#endpointDescription")).toEqual([`${BASE_URL}/openapi.json`]);
    expect(values("http://purl.org/dc/terms/modified")).toContain(new Date(Number(EPOCH) * 1000).toISOString());
    const titles = turtle.filter(
      (q) => q.predicate.value === "http://purl.org/dc/terms/title" && q.subject.value === `${BASE_URL}/#dataset`,
    );
    expect(titles.map((q) => (q.object as { language: string }).language).sort()).toEqual(["en", "hr"]);
  });
});

describe("the landing page's schema.org Dataset", () => {
  it("has Google's required and recommended properties", async () => {
    const html = (await published("index.html")).toString("utf8");
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    // No other script but the search's, a file (the Content-Security-Policy allows no inline script).
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/pretraga.js" defer>', '<script type="application/ld+json">']);
    const dataset = JSON.parse(blocks[0]?.[1] ?? "") as Record<string, unknown> & {
      description: string;
      distribution: Record<string, unknown>[];
    };
    // Required (developers.google.com/search/docs/appearance/structured-data/dataset): name, description of 50 to 5000 characters.
    expect(dataset).toMatchObject({ "@context": "https://schema.org/", "@type": "Dataset", name: expect.any(String) });
    expect(dataset.description.length).toBeGreaterThanOrEqual(50);
    expect(dataset.description.length).toBeLessThanOrEqual(5000);
    // Recommended: license, creator, distribution (contentUrl, encodingFormat), dateModified, spatialCoverage, url, keywords.
    expect(dataset["license"]).toBe("https://data.gov.hr/otvorena-dozvola");
    expect(dataset["creator"]).toMatchObject({ "@type": "Organization", name: expect.any(String) });
    expect(dataset["dateModified"]).toBe(new Date(Number(EPOCH) * 1000).toISOString());
    expect(dataset["spatialCoverage"]).toMatchObject({ "@type": "Place" });
    expect(dataset["url"]).toBe(`${BASE_URL}/`);
    expect(dataset.distribution.map((d) => [d["@type"], d["contentUrl"], d["encodingFormat"]])).toEqual(
      downloads.map((d) => ["DataDownload", `${BASE_URL}${d.path}`, DOWNLOAD_KINDS[d.format].mediaType.split(";")[0]]),
    );
  });

  it("the page shows the date of the last change, the downloads with their sizes, the publisher, contact, licence and source", async () => {
    const html = (await published("index.html")).toString("utf8");
    expect(html).toContain('<html lang="hr">');
    expect(html).toContain('<time datetime="2023-11-14" id="changed">14. 11. 2023.</time>');
    for (const d of downloads) expect(html).toContain(`href="${d.path}"`);
    expect(html).toContain("1,6 MB");
    expect(html).toContain('<span lang="en">1.6 MB</span>');
    expect(html).toContain("subjekti@example.org");
    expect(html).toContain("https://data.gov.hr/otvorena-dozvola");
    expect(html).toContain("https://tjv.pristupinfo.hr/");
    for (const path of ["/datapackage.json", "/catalog.ttl", "/catalog.jsonld", "/openapi.json"]) expect(html).toContain(`href="${path}"`);
  });
});
