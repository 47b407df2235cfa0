/**
 * The streaming workbook writer's zip and parts: the same rows and date give the same bytes; every
 * entry's CRC-32 and sizes, counted as the sheet streamed, are its bytes' (read back through yauzl
 * and inflated); the data's date is in docProps and every entry's stamp; the sheet holds inline
 * strings only (no shared-strings part), the OIB and code text cells, the filter over every row.
 */
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as zlib from "node:zlib";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import type { Subject } from "../../src/core/render-page.ts";
import { xlsxWriter } from "../../src/export/row-writers.ts";
import { XlsxWriter } from "../../src/export/xlsx-writer.ts";
import { tableCrc32 } from "../../src/export/xlsx-zip.ts";
import { crc32Combine } from "../../src/export/crc32-combine.ts";
import { openWorkbook, type SheetRow } from "../../src/data/sources/read-ooxml.ts";
import { openZip } from "../../src/data/sources/zip-entries.ts";
import { readRecords } from "../../src/data/read/read-records.ts";
import { resolveReadOptions } from "../../src/data/read-options.ts";
import { FIELD_NAMES } from "../../src/data/rules/subject-fields.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();
/** A python3 with openpyxl (Debian's python3-openpyxl), when there is one: the test says so and skips that reader otherwise. */
const OPENPYXL = ["/usr/bin/python3", "python3"].find((python) => spawnSync(python, ["-c", "import openpyxl"]).status === 0) ?? null;
const SUBJECTS = JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];
const DATE = new Date("2024-05-06T07:08:09Z");

async function write(name: string, subjects: readonly Subject[], date: Date): Promise<string> {
  const path = join(work.path, name);
  const rows = xlsxWriter(path, date);
  for (const subject of subjects) await rows.row(subject);
  await rows.end();
  return path;
}

interface Part {
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly date: Date;
  readonly bytes: Buffer;
}

/** Every entry as the central directory states it, with its inflated bytes. */
function readZip(path: string): Promise<Map<string, Part>> {
  return new Promise((resolve, reject) => {
    const parts = new Map<string, Part>();
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error !== null) return reject(error);
      zip.on("error", reject);
      zip.on("end", () => resolve(parts));
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (failed, stream) => {
          if (failed !== null) return reject(failed);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            const { crc32, compressedSize, uncompressedSize } = entry;
            parts.set(entry.fileName, {
              crc32,
              compressedSize,
              uncompressedSize,
              date: entry.getLastModDate(),
              bytes: Buffer.concat(chunks),
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

describe("the streaming workbook writer", () => {
  it("the sample twice with one date: the same bytes; with another date, other bytes of the same size", async () => {
    const a = await readFile(await write("a.xlsx", SUBJECTS, DATE));
    const b = await readFile(await write("b.xlsx", SUBJECTS, DATE));
    const c = await readFile(await write("c.xlsx", SUBJECTS, new Date("2025-01-01T00:00:00Z")));
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    expect(c.length).toBe(a.length);
  });

  it("every entry's CRC-32 and sizes are its bytes', each stamped with the data's date, docProps naming it", async () => {
    const parts = await readZip(await write("sample.xlsx", SUBJECTS, DATE));
    expect([...parts.keys()]).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "docProps/core.xml",
      "docProps/app.xml",
      "xl/_rels/workbook.xml.rels",
      "xl/styles.xml",
      "xl/worksheets/sheet1.xml",
      "xl/workbook.xml",
    ]);
    for (const [name, part] of parts) {
      expect({ name, crc: part.crc32, size: part.uncompressedSize }).toEqual({
        name,
        crc: zlib.crc32(part.bytes),
        size: part.bytes.length,
      });
      // The sheet deflated; the small parts stored, so the file's size does not move with the date's digits.
      if (name === "xl/worksheets/sheet1.xml") expect(part.compressedSize).toBeLessThan(part.uncompressedSize);
      else expect(part.compressedSize, name).toBe(part.uncompressedSize);
      // DOS time is local and in two-second steps: yauzl reads the fields as local time.
      expect([part.date.getFullYear(), part.date.getMonth(), part.date.getDate(), part.date.getHours(), part.date.getSeconds()]).toEqual([
        2024, 4, 6, 7, 8,
      ]);
    }
    const sheet = parts.get("xl/worksheets/sheet1.xml")?.bytes.toString("utf8") ?? "";
    // Several megabytes streamed in many batches: the CRC above was counted across them.
    expect(sheet.length).toBeGreaterThan(4 << 18);
    expect(parts.get("docProps/core.xml")?.bytes.toString("utf8")).toContain(
      '<dcterms:modified xsi:type="dcterms:W3CDTF">2024-05-06T07:08:09Z</dcterms:modified>',
    );
    expect(sheet).not.toContain('t="s"');
    expect(sheet).toContain(
      `<row r="2"><c r="A2"><v>${SUBJECTS[0]?.id}</v></c><c r="B2" s="1" t="inlineStr"><is><t>${SUBJECTS[0]?.jedinstvena_oznaka}</t></is></c>`,
    );
    expect(sheet).toContain(`<autoFilter ref="A1:J${SUBJECTS.length + 1}"/>`);
    expect(parts.get("xl/workbook.xml")?.bytes.toString("utf8")).toContain(`subjekti!$A$1:$J$${SUBJECTS.length + 1}</definedName>`);
  });

  it("a name with XML's characters and spaces at its ends is escaped and kept whole", async () => {
    const [first] = SUBJECTS;
    if (first === undefined) throw new Error("no sample");
    const parts = await readZip(await write("hostile.xlsx", [{ ...first, naziv_subjekta: " A & B <C> " }], DATE));
    expect(parts.get("xl/worksheets/sheet1.xml")?.bytes.toString("utf8")).toContain('<t xml:space="preserve"> A &amp; B &lt;C&gt; </t>');
  });

  it("with every size and offset in zip64's fields (as past 4 GiB, the sheet of ten million rows): the same parts, read by yauzl, Python's zipfile and the project's reader", async () => {
    const normal = await readZip(await write("normal.xlsx", SUBJECTS.slice(0, 100), DATE));
    const path = join(work.path, "zip64", "subjekti.xlsx");
    await mkdir(join(work.path, "zip64"));
    const workbook = new XlsxWriter(path, DATE, 0);
    for (const subject of SUBJECTS.slice(0, 100)) await workbook.row(FIELD_NAMES.map((field) => subject[field]));
    const written = await workbook.end();
    // Its hash and size, taken as it was written (the downloads' manifest names them), are the file's, zip64's end records and all.
    const file = await readFile(path);
    expect(written).toEqual({ sha256: createHash("sha256").update(file).digest("hex"), bytes: file.length });
    const zip64 = await readZip(path);
    expect([...zip64.keys()]).toEqual([...normal.keys()]);
    for (const [name, part] of zip64) expect(part.bytes.equals(normal.get(name)?.bytes ?? Buffer.alloc(0)), name).toBe(true);
    // Another reader of the format: CPython's zipfile checks each entry's CRC (testzip answers the first bad one, else None).
    const python = spawnSync(
      "python3",
      ["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip(), len(z.infolist()))", path],
      { encoding: "utf8" },
    );
    if (python.status === 0) expect(python.stdout.trim()).toBe("None 8");
    let count = 0;
    for await (const item of await readRecords(resolveReadOptions({ dataDir: join(work.path, "zip64") }), {
      restart: false,
      known: false,
    })) {
      if (item.kind === "block") count += item.block.ends.length;
    }
    expect(count).toBe(100);
  });

  it("an empty cell is left out: the next cell read in its own column by the project's reader and by openpyxl", async () => {
    const [first] = SUBJECTS;
    if (first === undefined) throw new Error("no sample");
    const dir = join(work.path, "holes");
    await mkdir(dir);
    const path = join(dir, "subjekti.xlsx");
    const workbook = new XlsxWriter(path, DATE);
    await workbook.row(FIELD_NAMES.map((field) => (field === "razina" ? null : first[field])));
    await workbook.end();
    const sheet = (await readZip(path)).get("xl/worksheets/sheet1.xml")?.bytes.toString("utf8") ?? "";
    expect(sheet).toContain(`</c><c r="F2" s="1" t="inlineStr"><is><t>${first.datum_postanka}</t></is></c>`);
    expect(sheet).not.toContain('r="E2"');
    const python = spawnSync(
      OPENPYXL ?? "python3",
      ["-c", "import sys, openpyxl; ws = openpyxl.load_workbook(sys.argv[1]).active; print(repr([c.value for c in ws[2]][4:6]))", path],
      { encoding: "utf8" },
    );
    if (OPENPYXL !== null) expect(python.stdout.trim()).toBe(`[None, '${first.datum_postanka}']`);
    const zip = await openZip(path);
    try {
      const rows: SheetRow[] = [];
      for await (const row of (await openWorkbook(zip)).rows("subjekti")) rows.push(row);
      expect(rows.map((row) => row.number)).toEqual([1, 2]);
      expect(rows[1]?.cells[4]).toBeUndefined();
      expect(rows[1]?.cells[5]).toBe(first.datum_postanka);
    } finally {
      zip.close();
    }
  });

  it("crc32Combine is zlib's CRC-32 of the two byte strings end to end, whatever their lengths", () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919 + (i >> 8)) & 0xff));
    for (const [cut, end] of [
      [0, 0],
      [0, 1],
      [1, 1],
      [1, 2],
      [3, 4096],
      [1000, 1001],
      [12_345, 70_000],
      [65_536, 70_000],
    ] as const) {
      const [a, b] = [bytes.subarray(0, cut), bytes.subarray(cut, end)];
      expect(crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length), `${cut}..${end}`).toBe(zlib.crc32(bytes.subarray(0, end)));
    }
    // Three pieces folded left: how the sheet's segments are.
    const pieces = [bytes.subarray(0, 7), bytes.subarray(7, 40_000), bytes.subarray(40_000)];
    expect(pieces.reduce((crc, piece) => crc32Combine(crc, zlib.crc32(piece), piece.length), 0)).toBe(zlib.crc32(bytes));
  });

  it("crc32Combine is associative, lengths past 2^32 bytes too (the sheet of ten million rows)", () => {
    // Appending is linear: A then (B then C) is (A then B) then C, whatever the CRCs and lengths.
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(), fc.nat(), fc.nat()).map((crcs) => crcs.map((crc) => crc >>> 0)),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        ([a, b, c], m, n) => {
          const [crcA, crcB, crcC] = [a as number, b as number, c as number];
          expect(crc32Combine(crc32Combine(crcA, crcB, m), crcC, n)).toBe(crc32Combine(crcA, crc32Combine(crcB, crcC, n), m + n));
        },
      ),
    );
  });

  it("the table CRC-32 (Node before 20.15) is zlib's, whole and continued across pieces", () => {
    const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff));
    expect(tableCrc32(bytes, 0)).toBe(zlib.crc32(bytes));
    expect(tableCrc32(bytes.subarray(1000), tableCrc32(bytes.subarray(0, 1000), 0))).toBe(zlib.crc32(bytes));
  });
});
