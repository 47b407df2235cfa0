/** Where a problem of an .xlsx source is: the sheet's cell (`subjekti!F118`), as Excel names it. */
import type { Problem } from "../problems/problems.ts";
import type { SheetLayout } from "./source-file.ts";

/** Excel's letters for a 1-based column number: 1 -> A, 27 -> AA. */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/** Gives problems[from…] of the record on `row` their cell: the field's column, or the whole row. */
export function placeInCells(problems: Problem[], from: number, sheet: SheetLayout, row: number): void {
  for (let k = from; k < problems.length; k++) {
    const p = problems[k] as Problem;
    const column = p.field === undefined ? undefined : sheet.columns.get(p.field);
    problems[k] = { ...p, cell: column === undefined ? `${sheet.name}!${row}:${row}` : `${sheet.name}!${column}${row}` };
  }
}
