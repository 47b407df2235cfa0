/**
 * The workbook written as its rows come: each row's XML appended to the sheet, deflated straight
 * into the zip (xlsx-zip.ts), a few hundred kilobytes at a time. Every text is an inline string in
 * its own cell, so no shared-strings table grows with the list; the OIB, the code and the date are
 * text cells with the text style, the id a number, the flags booleans. Memory is the zip's two
 * buffers, whatever the count (exceljs's streaming writer held 886 MB at a million rows).
 */
import { FIELD_NAMES } from "../data/rules/subject-schema.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";
import { frameParts, SHEET_PATH, sheetHead, sheetTail, TEXT_COLUMNS, TEXT_STYLE, workbookPart } from "./xlsx-parts.ts";
import { ZipWriter, type ZipEntryStream } from "./xlsx-zip.ts";
import { openZip } from "../data/sources/zip-entries.ts";

/** How much sheet XML is gathered before it is handed to the deflate (characters). */
const BATCH = 1 << 18;

const LETTERS = FIELD_NAMES.map((_, i) => columnLetters(i + 1));
const STYLES = FIELD_NAMES.map((field) => (TEXT_COLUMNS.has(field) ? ` s="${TEXT_STYLE}"` : ""));

const XML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** Text inside an element: `&`, `<` and `>` escaped (the rest is OOXML's `_xHHHH_`, done by the caller). */
function xmlText(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/[&<>]/g, (c) => XML_ESCAPES[c] ?? c) : text;
}

/** An inline string cell; white space at either end kept (Excel trims it otherwise). */
function textCell(reference: string, style: string, text: string): string {
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : "";
  return `<c r="${reference}"${style} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

/** One row's XML: `cells` in the fields' order (a string already in OOXML's escape). */
function rowXml(number: number, cells: readonly unknown[]): string {
  let xml = `<row r="${number}">`;
  for (let i = 0; i < cells.length; i++) {
    const value = cells[i];
    const reference = `${LETTERS[i] as string}${number}`;
    if (typeof value === "string") xml += textCell(reference, STYLES[i] as string, value);
    else if (typeof value === "boolean") xml += `<c r="${reference}" t="b"><v>${value ? 1 : 0}</v></c>`;
    else if (typeof value === "number") xml += `<c r="${reference}"><v>${value}</v></c>`;
  }
  return `${xml}</row>`;
}

/** A workbook of one sheet, written into `path` row by row; every date in it `date`. */
export class XlsxWriter {
  readonly #zip: ZipWriter;
  readonly #ready: Promise<ZipEntryStream>;
  #rows = 0;
  #batch: string[] = [];
  #size = 0;

  /** `zip64From` lowers the size from which the zip's fields are zip64's (a test's: 4 GiB otherwise). */
  constructor(path: string, date: Date, zip64From?: number) {
    const zip = new ZipWriter(path, date, zip64From);
    this.#zip = zip;
    this.#ready = (async () => {
      for (const [name, text] of frameParts(date)) await zip.add(name, text);
      const sheet = zip.open(SHEET_PATH);
      await sheet.write(Buffer.from(sheetHead() + rowXml(1, FIELD_NAMES), "utf8"));
      return sheet;
    })();
    // Awaited by the first flush or by end(); a failure before then is theirs to report.
    this.#ready.catch(() => undefined);
  }

  /** Adds a row of cells (texts already escaped); resolves when the zip can take more. */
  row(cells: readonly unknown[]): Promise<void> | void {
    const xml = rowXml(++this.#rows + 1, cells);
    this.#batch.push(xml);
    this.#size += xml.length;
    if (this.#size >= BATCH) return this.#flush();
  }

  async #flush(): Promise<void> {
    const text = this.#batch.join("");
    this.#batch = [];
    this.#size = 0;
    await (await this.#ready).write(Buffer.from(text, "utf8"));
  }

  /** The last rows, the sheet's end, the workbook part, the central directory. */
  async end(): Promise<void> {
    this.#batch.push(sheetTail(this.#rows));
    await this.#flush();
    await (await this.#ready).end();
    const [name, text] = workbookPart(this.#rows);
    await this.#zip.add(name, text);
    await this.#zip.end();
  }

  abort(): void {
    this.#zip.abort();
  }
}

/**
 * Is the workbook at `path` dated `date` (its docProps' modified)? With the same records, it is then
 * the workbook this writer would write again, so a rebuild of unchanged records may keep it.
 */
export async function isWorkbookDated(path: string, date: Date): Promise<boolean> {
  const [, core] = frameParts(date).find(([name]) => name === "docProps/core.xml") ?? ["", ""];
  let zip: Awaited<ReturnType<typeof openZip>>;
  try {
    zip = await openZip(path);
  } catch {
    // Not a zip that opens (damaged since, at its size): it is written again from the records.
    return false;
  }
  try {
    const stream = await zip.open("docProps/core.xml");
    if (stream === null) return false;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8") === core;
  } finally {
    zip.close();
  }
}
