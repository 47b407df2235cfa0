/**
 * CSV injection (OWASP, "CSV Injection"): a spreadsheet opening a CSV evaluates a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a CR (and their full-width forms, which some evaluate too) as a
 * formula, so a value could run one (a HYPERLINK sending other cells out) or be rewritten when the
 * file is saved back (`-2+3`, `+385 1 …`). The export writes such a cell with the leading
 * apostrophe OWASP recommends; the CSV reader takes one apostrophe off again where it precedes
 * such a character, so export → build gives the same records.
 *
 * A value that already starts with apostrophes before such a character gets one more, so the
 * mapping is one to one: guarded values are exactly the cells `'+` then a trigger, and unguarding
 * takes off exactly the apostrophe guarding added.
 */

/** The characters that make a spreadsheet read a cell as a formula. */
const TRIGGERS = new Set(["=", "+", "-", "@", "\t", "\r", "\uFF1D", "\uFF0B", "\uFF0D", "\uFF20"]);

/** Does `text` start with `apostrophes` or more apostrophes and then a trigger? */
function startsWithTrigger(text: string, apostrophes: number): boolean {
  let i = 0;
  while (text[i] === "'") i++;
  return i >= apostrophes && TRIGGERS.has(text[i] ?? "");
}

/** The cell a CSV export writes for `text`: with a leading apostrophe when a spreadsheet would evaluate it. */
export function guardFormula(text: string): string {
  return startsWithTrigger(text, 0) ? `'${text}` : text;
}

/** The value of a CSV cell the export guarded: its leading apostrophe off when it precedes a trigger. */
export function unguardFormula(cell: string): string {
  return startsWithTrigger(cell, 1) ? cell.slice(1) : cell;
}
