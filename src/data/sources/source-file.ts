/** A source file as the read and ordering stages see it: its display name and how its records are located. */
import type { SourceKind } from "../rules/field-hints.ts";
import type { Problem } from "../problems/problems.ts";

export interface SourceFile {
  /** The path as problems show it: relative to the working directory (`data/x.csv`). */
  readonly name: string;
  /** The path to open. */
  readonly path: string;
  /** JSON arrays locate records by index; NDJSON and CSV by line. */
  readonly locateBy: "index" | "line";
  readonly kind: SourceKind;
  /** The encoding of a CSV source (a WHATWG label), when not UTF-8. */
  readonly encoding?: string;
  /** An .xlsx source: the sheet read and each field's column letter, filled in as the header row is read. */
  readonly sheet?: SheetLayout;
}

/** Where an .xlsx source's records are: the sheet's name and each field's column. */
export interface SheetLayout {
  name: string;
  readonly columns: Map<string, string>;
}

/** The location fields of a problem about the record at `position` (no position: the whole file). */
export function locate(file: SourceFile, position?: number): Pick<Problem, "file" | "index" | "line"> {
  if (position === undefined) return { file: file.name };
  return file.locateBy === "index" ? { file: file.name, index: position } : { file: file.name, line: position };
}
