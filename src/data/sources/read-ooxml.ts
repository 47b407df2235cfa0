/**
 * The rows of a workbook's worksheet, read as the Office Open XML format defines them (ECMA-376
 * part 1, §18), not as one library's writer happens to write them: the workbook part found through
 * the package relationships; the sheets' targets relative or absolute (openpyxl writes
 * `/xl/worksheets/sheet1.xml`); shared strings and inline strings as the text of their `<t>`
 * elements only (Gnumeric indents the XML between them); a cell's value by its type, a formula
 * cell's cached value included (LibreOffice writes a boolean as `<c t="b"><f>TRUE()</f><v>1</v>`);
 * dates by the cell's number format, in the 1900 or 1904 date system; `_xHHHH_` escapes decoded.
 *
 * The worksheet itself streams through a SAX parser, row by row, so a million rows never sit in
 * memory; the shared strings (which a worksheet can reference from any row) are held as a table.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { type ZipEntries, readEntryText } from "./zip-entries.ts";
import type { Cell } from "./spreadsheet-forms.ts";
import { decodeXstring } from "./xstring.ts";

export interface SheetRow {
  /** The 1-based row number. */
  readonly number: number;
  /** Cells by 0-based column; holes are empty cells. */
  readonly cells: Cell[];
}

export interface Workbook {
  /** The sheet names, in the workbook's order. */
  readonly sheets: readonly string[];
  /** The rows of the named sheet, in order (a hole in the numbers is an empty row). */
  rows(sheet: string): AsyncGenerator<SheetRow>;
}

const DAY_MS = 86_400_000;

/** A name without its namespace prefix (`x:row` → `row`): writers may prefix the main namespace. */
const local = (name: string): string => name.slice(name.indexOf(":") + 1);

/** Parses a small XML part whole, calling `open` for each element (and `close` as each ends). */
function parseXml(xml: string, open: (tag: SaxesTagPlain) => void, close?: (name: string) => void): void {
  const parser = new SaxesParser();
  parser.on("opentag", open);
  if (close !== undefined) parser.on("closetag", (tag) => close(local(tag.name)));
  parser.write(xml).close();
}

/** A relationship's target: absolute from the package root (`/xl/…`), or relative to the source part's folder. */
export function resolveTarget(folder: string, target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : `${folder}/${target}`).split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  return out.join("/");
}

/** The relationships of `part` (in `<folder>/_rels/<name>.rels`): id → target, and the last segment of the type → target. */
async function relationships(zip: ZipEntries, part: string): Promise<{ byId: Map<string, string>; byType: Map<string, string> }> {
  const slash = part.lastIndexOf("/");
  const folder = slash < 0 ? "" : part.slice(0, slash);
  const xml = await readEntryText(zip, `${folder === "" ? "" : `${folder}/`}_rels/${part.slice(slash + 1)}.rels`);
  const byId = new Map<string, string>();
  const byType = new Map<string, string>();
  if (xml === null) return { byId, byType };
  parseXml(xml, (tag) => {
    if (local(tag.name) !== "Relationship" || tag.attributes["TargetMode"] === "External") return;
    const target = resolveTarget(folder, String(tag.attributes["Target"] ?? ""));
    byId.set(String(tag.attributes["Id"] ?? ""), target);
    const type = String(tag.attributes["Type"] ?? "");
    byType.set(type.slice(type.lastIndexOf("/") + 1), target);
  });
  return { byId, byType };
}

/** The built-in number formats that show a date or time (ECMA-376 §18.8.30, and the East Asian ids). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Does a format code show a date or time? Its tokens outside quotes, escapes and [colour] brackets. */
export function isDateFormat(code: string): boolean {
  let bare = "";
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    // A format of several sections is a date when its first (positive) section is.
    if (c === ";") break;
    if (c === "\\") i++;
    else if (c === '"') i = skipTo(code, i, '"');
    else if (c === "[") i = skipTo(code, i, "]");
    else bare += c;
  }
  return /[dmyhs]/i.test(bare) && !/general/i.test(bare);
}

/** The index of the next `end` after `from` (the end of the text when there is none). */
function skipTo(text: string, from: number, end: string): number {
  const at = text.indexOf(end, from + 1);
  return at < 0 ? text.length : at;
}

/** Which cell styles (indexes into cellXfs) show dates. */
function dateStyles(xml: string | null): Set<number> {
  const dates = new Set<number>();
  if (xml === null) return dates;
  const custom = new Map<number, string>();
  let inCellXfs = false;
  let index = 0;
  parseXml(
    xml,
    (tag) => {
      const name = local(tag.name);
      if (name === "numFmt") custom.set(Number(tag.attributes["numFmtId"]), String(tag.attributes["formatCode"] ?? ""));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const id = Number(tag.attributes["numFmtId"] ?? 0);
        const code = custom.get(id);
        if (code === undefined ? DATE_FORMAT_IDS.has(id) : isDateFormat(code)) dates.add(index);
        index++;
      }
    },
    (name) => {
      if (name === "cellXfs") inCellXfs = false;
    },
  );
  return dates;
}

/**
 * Reads the text of `<t>` elements inside `container` elements: `<si>` of the shared strings,
 * `<is>` of an inline string. Runs (`<r><t>`) join; phonetic runs (`<rPh>`) and the white space
 * between elements are not text.
 */
class TextCollector {
  readonly #container: string;
  #parts: string[] | null = null;
  #inT = false;
  #phonetic = 0;
  constructor(container: string) {
    this.#container = container;
  }
  open(name: string): void {
    if (name === this.#container) this.#parts = [];
    else if (name === "rPh") this.#phonetic++;
    else if (name === "t" && this.#parts !== null && this.#phonetic === 0) this.#inT = true;
  }
  /** The container's text when it ends here, else undefined. */
  close(name: string): string | undefined {
    if (name === "t") this.#inT = false;
    else if (name === "rPh") this.#phonetic--;
    else if (name === this.#container && this.#parts !== null) {
      const text = decodeXstring(this.#parts.join(""));
      this.#parts = null;
      return text;
    }
    return undefined;
  }
  text(value: string): void {
    if (this.#inT) this.#parts?.push(value);
  }
}

/** Feeds a part's bytes to the parser as text: a character cut between two chunks is decoded whole. */
async function feed(stream: AsyncIterable<unknown>, parser: SaxesParser): Promise<void> {
  const decoder = utf8();
  for await (const chunk of stream) parser.write(decoder(chunk as Buffer));
  parser.write(decoder()).close();
}

/** A streaming UTF-8 decoder (a character cut between chunks decoded whole); bytes that are not UTF-8 are an Error, not a TypeError. */
function utf8(): (chunk?: Uint8Array) => string {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  return (chunk) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new Error("a part of it is not UTF-8 text");
    }
  };
}

/** The shared strings table. */
async function sharedStrings(zip: ZipEntries, path: string | undefined): Promise<string[]> {
  const strings: string[] = [];
  const stream = path === undefined ? null : await zip.open(path);
  if (stream === null) return strings;
  const parser = new SaxesParser();
  const si = new TextCollector("si");
  parser.on("opentag", (tag) => si.open(local(tag.name)));
  parser.on("closetag", (tag) => {
    const text = si.close(local(tag.name));
    if (text !== undefined) strings.push(text);
  });
  parser.on("text", (value) => si.text(value));
  await feed(stream, parser);
  return strings;
}

/** The column index (0-based) of a cell reference such as `AB12`. */
function columnOf(reference: string): number {
  let column = 0;
  for (let i = 0; i < reference.length; i++) {
    const c = reference.charCodeAt(i);
    if (c < 65 || c > 90) break;
    column = column * 26 + (c - 64);
  }
  return column - 1;
}

/**
 * The date a serial number stands for. 1900 system: serial 1 is 1900-01-01 and 60 Lotus's
 * 29 February 1900, so serials from 61 on are one day behind the calendar; 1904 system: 0 is 1904-01-01.
 */
export function serialDate(serial: number, date1904: boolean): Date {
  const daysFrom1970 = date1904 ? serial - 24107 : serial - (serial < 60 ? 25568 : 25569);
  return new Date(Math.round(daysFrom1970 * DAY_MS));
}

/** Opens the workbook in `zip`: its sheets, and each sheet's rows as a stream. */
export async function openWorkbook(zip: ZipEntries): Promise<Workbook> {
  const root = await relationships(zip, "");
  const workbookPath = root.byType.get("officeDocument") ?? "xl/workbook.xml";
  const workbookXml = await readEntryText(zip, workbookPath);
  if (workbookXml === null) throw new Error(`no workbook part (${workbookPath})`);
  const rels = await relationships(zip, workbookPath);
  const sheets: { name: string; path: string }[] = [];
  let date1904 = false;
  parseXml(workbookXml, (tag) => {
    const name = local(tag.name);
    if (name === "workbookPr") date1904 = ["1", "true"].includes(String(tag.attributes["date1904"] ?? ""));
    if (name !== "sheet") return;
    const id = Object.entries(tag.attributes).find(([key]) => key !== "sheetId" && local(key) === "id")?.[1];
    const path = rels.byId.get(String(id ?? ""));
    if (path !== undefined) sheets.push({ name: String(tag.attributes["name"] ?? ""), path });
  });
  const strings = await sharedStrings(zip, rels.byType.get("sharedStrings"));
  const styles = dateStyles(await readEntryText(zip, rels.byType.get("styles") ?? "xl/styles.xml"));
  return {
    sheets: sheets.map((s) => s.name),
    rows: (name) => sheetRows(zip, sheets.find((s) => s.name === name)?.path ?? "", { strings, styles, date1904 }),
  };
}

interface SheetContext {
  readonly strings: readonly string[];
  readonly styles: ReadonlySet<number>;
  readonly date1904: boolean;
}

/** The rows of the worksheet part at `path`, streamed. */
async function* sheetRows(zip: ZipEntries, path: string, context: SheetContext): AsyncGenerator<SheetRow> {
  const stream = await zip.open(path);
  if (stream === null) throw new Error(`no worksheet part (${path})`);
  const parser = new SaxesParser();
  const done: SheetRow[] = [];
  const inline = new TextCollector("is");
  let row: SheetRow | null = null;
  let rowNumber = 0;
  let column = -1;
  // The cell being read: its type and style, and the text of its <v> (or its inline string).
  let type = "n";
  let style = 0;
  let value: string | undefined;
  let v: string[] | null = null;
  parser.on("opentag", (tag) => {
    const name = local(tag.name);
    inline.open(name);
    if (name === "row") {
      rowNumber = tag.attributes["r"] === undefined ? rowNumber + 1 : Number(tag.attributes["r"]);
      row = { number: rowNumber, cells: [] };
      column = -1;
    } else if (name === "c") {
      const reference = tag.attributes["r"];
      column = reference === undefined ? column + 1 : columnOf(String(reference));
      type = String(tag.attributes["t"] ?? "n");
      style = Number(tag.attributes["s"] ?? 0);
      value = undefined;
    } else if (name === "v") {
      v = [];
    }
  });
  parser.on("closetag", (tag) => {
    const name = local(tag.name);
    const text = inline.close(name);
    if (text !== undefined) value = text;
    if (name === "v") {
      value = (v ?? []).join("");
      v = null;
    } else if (name === "c") {
      if (row !== null && value !== undefined) row.cells[column] = cellValue(type, style, value, context);
    } else if (name === "row") {
      if (row !== null) done.push(row);
      row = null;
    }
  });
  parser.on("text", (text) => {
    inline.text(text);
    v?.push(text);
  });
  const decoder = utf8();
  for await (const chunk of stream) {
    parser.write(decoder(chunk as Buffer));
    yield* done.splice(0);
  }
  parser.write(decoder()).close();
  yield* done.splice(0);
}

/** A cell's value by its type (ECMA-376 §18.18.11): a formula cell's cached value like any other. */
function cellValue(type: string, style: number, text: string, context: SheetContext): Cell {
  switch (type) {
    case "s":
      return context.strings[Number(text)] ?? "";
    case "inlineStr":
      return text;
    case "str":
      return decodeXstring(text);
    case "b":
      return text.trim() === "1" || text.trim().toLowerCase() === "true";
    case "e":
      return text;
    case "d":
      return new Date(text);
    default: {
      if (text.trim() === "") return undefined;
      const number = Number(text);
      return context.styles.has(style) && Number.isFinite(number) ? serialDate(number, context.date1904) : number;
    }
  }
}
