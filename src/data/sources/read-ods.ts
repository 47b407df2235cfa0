/**
 * The rows of an OpenDocument spreadsheet (.ods, LibreOffice's own format; OpenDocument 1.2 part 1,
 * §9.1 tables and §19.385 value types), streamed from its `content.xml` through a SAX parser:
 * a cell's value by its `office:value-type` (a float's `office:value`, a boolean's
 * `office:boolean-value`, a date's `office:date-value`), text from its `<text:p>` paragraphs
 * (joined by line feeds; `<text:s text:c="n"/>` is n spaces, `<text:tab/>` a tab,
 * `<text:line-break/>` a line feed), repeated cells and rows as many times as they say (the empty
 * ones that pad a sheet to its last column or row only counted). A number shown by a boolean data
 * style is a boolean, and so is the number of a `TRUE()` or `FALSE()` formula: LibreOffice saves a
 * boolean it read from an .xlsx as `table:formula="of:=TRUE()" office:value-type="float" office:value="1"`.
 */
import { SaxesParser, type SaxesTagPlain } from "saxes";
import type { Workbook, SheetRow } from "./read-ooxml.ts";
import type { Cell } from "./spreadsheet-forms.ts";
import type { ZipEntries } from "./zip-entries.ts";

const CONTENT = "content.xml";
/** A formula that is a boolean constant, in OpenFormula (`of:`) or without a namespace. */
const BOOLEAN_FORMULA = /^(?:of:)?=(?:TRUE|FALSE)\(\)$/i;
/** A row repeated more than this many times with values in it is not data a person typed. */
const MAX_REPEATED_ROWS = 1000;

const attribute = (tag: SaxesTagPlain, name: string): string | undefined => {
  const value = tag.attributes[name];
  return value === undefined ? undefined : String(value);
};

/** The sheet names, from the `<table:table table:name="…">` tags of content.xml (a byte scan, no parse). */
async function tableNames(zip: ZipEntries): Promise<string[]> {
  const stream = await zip.open(CONTENT);
  if (stream === null) throw new Error(`no ${CONTENT}: not an OpenDocument spreadsheet`);
  const names: string[] = [];
  const OPEN = "<table:table ";
  let carry = "";
  for await (const chunk of stream) {
    const text = carry + (chunk as Buffer).toString("latin1");
    let at = text.indexOf(OPEN);
    while (at >= 0) {
      const end = text.indexOf(">", at);
      if (end < 0) break;
      const name = /table:name="([^"]*)"/.exec(text.slice(at, end))?.[1];
      if (name !== undefined)
        names.push(
          Buffer.from(name, "latin1")
            .toString("utf8")
            .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e] ?? ""),
        );
      at = text.indexOf(OPEN, end);
    }
    // A tag cut between two chunks is looked at again with the next.
    carry = text.slice(Math.max(text.lastIndexOf("<"), text.length - 4096));
  }
  return names;
}

/** Opens the spreadsheet in `zip`: its sheets, and each sheet's rows as a stream. */
export async function openOdsWorkbook(zip: ZipEntries): Promise<Workbook> {
  const sheets = await tableNames(zip);
  return { sheets, rows: (name) => tableRows(zip, name) };
}

/** The value of a cell from its attributes and its paragraphs' text; `boolean`: its style shows a boolean. */
function cellValue(type: string | undefined, tag: SaxesTagPlain, text: string, boolean: boolean): Cell {
  switch (type) {
    case "float":
    case "percentage":
    case "currency": {
      const value = Number(attribute(tag, "office:value"));
      return boolean ? value !== 0 : value;
    }
    case "boolean":
      return attribute(tag, "office:boolean-value") === "true";
    case "date": {
      const value = attribute(tag, "office:date-value") ?? "";
      // A date without a time zone is a calendar date (or a local date-time): read it as UTC, as dates are everywhere here.
      return new Date(/(?:Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value}${value.includes("T") ? "" : "T00:00:00"}Z`);
    }
    case undefined:
      return undefined;
    default:
      return text;
  }
}

/** The rows of the table named `name`, streamed. */
async function* tableRows(zip: ZipEntries, name: string): AsyncGenerator<SheetRow> {
  const stream = await zip.open(CONTENT);
  if (stream === null) throw new Error(`no ${CONTENT}: not an OpenDocument spreadsheet`);
  const parser = new SaxesParser();
  const done: SheetRow[] = [];
  // The automatic styles come before the tables: which cell styles show booleans, and each column's default cell style.
  const booleanDataStyles = new Set<string>();
  const booleanCellStyles = new Set<string>();
  let columnStyles: (string | undefined)[] = [];
  let inTable = false;
  let rowNumber = 0;
  let rowRepeat = 1;
  let cells: Cell[] = [];
  let column = 0;
  // The cell being read.
  let cell: SaxesTagPlain | null = null;
  let repeat = 1;
  let paragraphs: string[] = [];
  let paragraph: string[] | null = null;
  parser.on("opentag", (tag) => {
    if (tag.name === "number:boolean-style") booleanDataStyles.add(attribute(tag, "style:name") ?? "");
    if (tag.name === "style:style" && booleanDataStyles.has(attribute(tag, "style:data-style-name") ?? ""))
      booleanCellStyles.add(attribute(tag, "style:name") ?? "");
    if (tag.name === "table:table") {
      inTable = attribute(tag, "table:name") === name;
      columnStyles = [];
    }
    if (!inTable) return;
    switch (tag.name) {
      case "table:table-column": {
        const style = attribute(tag, "table:default-cell-style-name");
        for (let i = Number(attribute(tag, "table:number-columns-repeated") ?? 1); i > 0 && columnStyles.length < 1024; i--)
          columnStyles.push(style);
        break;
      }
      case "table:table-row":
        rowRepeat = Number(attribute(tag, "table:number-rows-repeated") ?? 1);
        cells = [];
        column = 0;
        break;
      case "table:table-cell":
      case "table:covered-table-cell":
        cell = tag;
        repeat = Number(attribute(tag, "table:number-columns-repeated") ?? 1);
        paragraphs = [];
        break;
      case "text:p":
        paragraph = [];
        break;
      case "text:s":
        paragraph?.push(" ".repeat(Number(attribute(tag, "text:c") ?? 1)));
        break;
      case "text:tab":
        paragraph?.push("\t");
        break;
      case "text:line-break":
        paragraph?.push("\n");
        break;
    }
  });
  parser.on("text", (text) => {
    // Only text inside a paragraph is the cell's (the XML between elements is layout).
    paragraph?.push(text);
  });
  parser.on("closetag", (tag) => {
    if (!inTable) return;
    switch (tag.name) {
      case "text:p":
        if (paragraph !== null) paragraphs.push(paragraph.join(""));
        paragraph = null;
        break;
      case "table:table-cell":
      case "table:covered-table-cell": {
        const style = cell === null ? undefined : (attribute(cell, "table:style-name") ?? columnStyles[column]);
        const boolean =
          booleanCellStyles.has(style ?? "") || BOOLEAN_FORMULA.test(cell === null ? "" : (attribute(cell, "table:formula") ?? ""));
        const value = cell === null ? undefined : cellValue(attribute(cell, "office:value-type"), cell, paragraphs.join("\n"), boolean);
        // Empty repeated cells (the padding to the sheet's last column) only move the column on.
        if (value !== undefined) for (let i = 0; i < repeat; i++) cells[column + i] = value;
        column += repeat;
        cell = null;
        break;
      }
      case "table:table-row": {
        const empty = !cells.some((c) => c !== undefined);
        if (!empty && rowRepeat > MAX_REPEATED_ROWS) throw new Error(`row ${rowNumber + 1} is repeated ${rowRepeat} times`);
        if (!empty) for (let i = 0; i < rowRepeat; i++) done.push({ number: rowNumber + i + 1, cells: [...cells] });
        rowNumber += rowRepeat;
        break;
      }
      case "table:table":
        inTable = false;
        break;
    }
  });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const chunk of stream) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
    yield* done.splice(0);
  }
  parser.write(decoder.decode()).close();
  yield* done.splice(0);
}
