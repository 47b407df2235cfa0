/**
 * The parts of the workbook other than its rows (ECMA-376 Part 1, SpreadsheetML): what a package
 * needs to open in Excel, LibreOffice, Gnumeric, openpyxl and the project's own reader, and no
 * more (no theme, no shared strings: every text is an inline string in its cell). Plain functions
 * of the sheet's shape and the data's date, so the same data gives the same bytes.
 */
import { FIELD_NAMES } from "../data/rules/subject-fields.ts";
import { columnLetters } from "../data/sources/sheet-cells.ts";

export const SHEET_NAME = "subjekti";
export const SHEET_PATH = "xl/worksheets/sheet1.xml";

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";

/** Columns Excel must keep as text: its zeros (OIB, code) and an ISO date it would rewrite. */
export const TEXT_COLUMNS: ReadonlySet<string> = new Set(["jedinstvena_oznaka", "oib", "datum_postanka"]);
/** The index in cellXfs of the text style (number format 49, `@`). */
export const TEXT_STYLE = 1;
/** The last row of a worksheet (the lists cover every row a person may add). */
const MAX_ROWS = 1_048_576;
const LAST_COLUMN = columnLetters(FIELD_NAMES.length);

const column = (field: string): string => columnLetters(FIELD_NAMES.indexOf(field as (typeof FIELD_NAMES)[number]) + 1);

/** Every part but the sheet and the workbook, by path, in the order written: the package's frame and the data's date. */
export function frameParts(date: Date): [string, string][] {
  const stamp = `${date.toISOString().slice(0, 19)}Z`;
  return [
    [
      "[Content_Types].xml",
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/${SHEET_PATH}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`,
    ],
    [
      "_rels/.rels",
      `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="${RELATIONSHIPS}/extended-properties" Target="docProps/app.xml"/></Relationships>`,
    ],
    [
      "docProps/core.xml",
      `${XML}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>subjekti</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${stamp}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${stamp}</dcterms:modified></cp:coreProperties>`,
    ],
    [
      "docProps/app.xml",
      `${XML}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>subjekti</Application></Properties>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      "xl/styles.xml",
      // Style 0 the default, style 1 text (built-in number format 49, `@`).
      `${XML}<styleSheet xmlns="${MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}

/** The workbook part, written after the sheet: the filter's range as Excel names it (a hidden defined name) covers every row. */
export function workbookPart(rows: number): [string, string] {
  return [
    "xl/workbook.xml",
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><bookViews><workbookView/></bookViews><sheets><sheet name="${SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${SHEET_NAME}!$A$1:$${LAST_COLUMN}$${rows + 1}</definedName></definedNames></workbook>`,
  ];
}

/** The sheet's XML before its first row: the frozen header, the columns' widths and text styles. */
export function sheetHead(): string {
  const cols = FIELD_NAMES.map((field, i) => {
    const width = field === "naziv_subjekta" || field === "institucija_email" ? 48 : 16;
    const style = TEXT_COLUMNS.has(field) ? ` style="${TEXT_STYLE}"` : "";
    return `<col min="${i + 1}" max="${i + 1}" width="${width}"${style} customWidth="1"/>`;
  }).join("");
  return `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`;
}

/**
 * The sheet's XML after its last row: a filter on every column, and help for the person editing it
 * (the known levels and the two flags offered as lists down to the sheet's last row; suggestions
 * only: another lowercase level is still accepted, with a warning).
 */
export function sheetTail(rows: number): string {
  const list = (field: string, values: string): string =>
    `<dataValidation type="list" allowBlank="1" showErrorMessage="0" sqref="${column(field)}2:${column(field)}${MAX_ROWS}"><formula1>"${values}"</formula1></dataValidation>`;
  const lists = [list("razina", "lokalna,nacionalna"), list("status_subjekta", "TRUE,FALSE"), list("odobreno", "TRUE,FALSE")];
  return `</sheetData><autoFilter ref="A1:${LAST_COLUMN}${rows + 1}"/><dataValidations count="${lists.length}">${lists.join("")}</dataValidations><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`;
}
