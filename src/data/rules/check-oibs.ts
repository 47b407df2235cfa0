/**
 * Two subjects with one OIB: the same institution entered twice (a new id and code, the same name
 * and OIB) would otherwise pass silently. A warning, not an error: a registry may hold two bodies
 * of one legal person. The later record is warned at, naming both (id and code of each).
 *
 * Every OIB seen is kept with its first holder, as a number (11 digits fit a double exactly) in a
 * Map: about 60 bytes a subject, the one part of a read that grows with the list.
 */
import { msg } from "../../common/messages/message.ts";
import { formatLocation, type Problem, type ProblemSink, showValue } from "../problems/problems.ts";
import { placeInCells } from "../sources/sheet-cells.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";

/** The keys of a block's records, as the reader hands them on. */
export interface OibKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
  readonly oibs: readonly string[];
  readonly positions: ArrayLike<number>;
}

/** Each OIB's first holder; warns at every later one. */
export class OibCheck {
  /** OIB -> its first holder: id, code and place, as `id\tcode\tplace`. */
  readonly #first = new Map<number, string>();

  /** Checks the records of one block of `file`, warning (an error when `strict`) at each OIB seen before. */
  add(keys: OibKeys, file: SourceFile, strict: boolean, problems: ProblemSink): void {
    for (let k = 0; k < keys.oibs.length; k++) {
      const oib = keys.oibs[k] ?? "";
      // "": a record held only for its keys (it has an error of its own).
      if (oib === "") continue;
      const number = Number(oib);
      const [id, code, position] = [keys.ids[k] ?? 0, keys.codes[k] ?? "", keys.positions[k] ?? 0];
      const first = this.#first.get(number);
      if (first === undefined) {
        this.#first.set(number, `${id}\t${code}\t${formatLocation(placed(file, position))}`);
        continue;
      }
      const [otherId, otherCode, where] = first.split("\t") as [string, string, string];
      // The same record in two sources: the id rule says so (check-sequence.ts), once for the whole file.
      if (Number(otherId) === id) continue;
      const hint = msg("hint.same-oib", { id, code, otherId: Number(otherId), otherCode, where });
      problems.push({ severity: strict ? "error" : "warning", ...placed(file, position, "oib"), field: "oib", value: showValue(oib), expected: msg("expected.one-subject-oib"), hint });
    }
  }
}

/** Where a record (or one of its fields) is: its cell when the file is a spreadsheet. */
function placed(file: SourceFile, position: number, field?: string): Pick<Problem, "file" | "index" | "line" | "cell"> {
  const where: Problem[] = [{ severity: "warning", ...locate(file, position), ...(field === undefined ? {} : { field }), expected: msg("expected.one-subject-oib") }];
  if (file.sheet !== undefined) placeInCells(where, 0, file.sheet, position);
  const { file: name, index, line, cell } = where[0] as Problem;
  return { file: name, ...(index === undefined ? {} : { index }), ...(line === undefined ? {} : { line }), ...(cell === undefined ? {} : { cell }) };
}
