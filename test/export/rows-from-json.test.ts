/**
 * A chunk's records found once (chunkRecords) and read by both formats' rows: each format's rows
 * are the bytes of its row of each parsed record (csvRow, rowXml), whatever the chunk read before
 * (the records' arrays and the rows' buffers are reused from one chunk to the next).
 */
import { describe, expect, it } from "vitest";
import { renderSubject, type Subject } from "../../src/core/render-page.ts";
import { csvRowsOf } from "../../src/export/csv-from-json.ts";
import { csvRow } from "../../src/export/csv-row.ts";
import { chunkRecords, Scratch } from "../../src/export/rows-from-json.ts";
import { xlsxRowsOf } from "../../src/export/xlsx-from-json.ts";
import { rowXml, workbookCells } from "../../src/export/xlsx-row.ts";
import { chunkOf, otherForms, PLAIN } from "./record-json-cases.ts";

/** `count` records, plain ones and every form the build does not write in turn, each with its own id and name. */
function lines(count: number): string[] {
  const others = otherForms();
  return Array.from({ length: count }, (_, i) =>
    i % 7 === 3 ? (others[i % others.length] as string) : renderSubject({ ...PLAIN, id: i + 1, naziv_subjekta: `Općina ${i} & <${i}>` }),
  );
}

/** Each line of `chunk` parsed. */
const parsed = (chunk: Buffer): Subject[] =>
  chunk
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Subject);

describe("a chunk's records read by both formats", () => {
  it("give each format's rows of the parsed records: a chunk past the arrays' first size, then a shorter one, then the first again", () => {
    const csv = new Scratch();
    const xlsx = new Scratch();
    const chunks = [chunkOf(lines(2500)), chunkOf(lines(40).reverse(), false), chunkOf(lines(2500))];
    let first = 2;
    for (const chunk of chunks) {
      const records = chunkRecords(chunk);
      const xml = xlsxRowsOf(records, first, xlsx);
      // Made in buffers of their own: the CSV's must not be overwritten by the workbook's.
      const rows = csvRowsOf(records, csv);
      const subjects = parsed(chunk);
      expect(records.count).toBe(subjects.length);
      expect(rows.toString("utf8")).toBe(subjects.map(csvRow).join(""));
      expect(xml.toString("utf8")).toBe(subjects.map((s, i) => rowXml(first + i, workbookCells(s))).join(""));
      first += records.count;
    }
  });

  it("take no record whose key differs from the form's by one letter, wherever it is in the key (keys are compared four bytes at a time)", () => {
    const json = renderSubject(PLAIN);
    const changed: string[] = [];
    for (const field of Object.keys(PLAIN)) {
      const at = json.indexOf(`"${field}":`) + 1;
      for (let i = 0; i < field.length; i++) changed.push(`${json.slice(0, at + i)}X${json.slice(at + i + 1)}`);
    }
    const chunk = chunkOf(changed);
    const records = chunkRecords(chunk);
    expect([...records.plain.subarray(0, records.count)]).toEqual(changed.map(() => 0));
    expect(csvRowsOf(records, new Scratch()).toString("utf8")).toBe(parsed(chunk).map(csvRow).join(""));
  });

  it("an empty chunk has no records and no rows", () => {
    const records = chunkRecords(Buffer.alloc(0));
    expect(records.count).toBe(0);
    expect(csvRowsOf(records, new Scratch()).length).toBe(0);
    expect(xlsxRowsOf(records, 2, new Scratch()).length).toBe(0);
  });
});
