/**
 * The rules that span records (the data rules, docs/data.md): ids unique, `jedinstvena_oznaka` unique and
 * strictly increasing with id. They are checked on records taken in id order (ties in reading
 * order), keeping only the previous record: a stream of any length in flat memory. Locating every
 * broken rule also keeps each code's first record, to tell a code given twice from one out of step.
 */
import { formatLocation, type Problem, type ProblemSink, showValue } from "../problems/problems.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";

/** Compares zero-padded digit strings by value, so "10000" follows "9999" whatever the padding. */
export function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, "");
  const y = b.replace(/^0+(?=.)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The keys of records in id order. */
export interface SequenceKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
}

/** Records in id order with where each came from: its file's number and its index or line there. */
export interface PlacedKeys extends SequenceKeys {
  readonly files: ArrayLike<number>;
  readonly positions: ArrayLike<number>;
}

type Place = Pick<Problem, "file" | "index" | "line">;

/**
 * The rules across records, checked record by record in id order against the one before. A record
 * that does not follow its predecessor means input out of id order or a broken rule (firstBreak);
 * `locate` then finds and describes every broken rule on a second pass.
 */
export class SequenceCheck {
  #id = 0;
  #code: string | undefined;
  #place: Place | undefined;
  /** Locating only: each code (its zeros trimmed) with its first record's id and place. */
  readonly #first = new Map<string, { readonly id: number; readonly code: string; readonly place: Place }>();

  /** The index of the first of `keys`'s records that does not follow the one before, or -1 when all do. */
  firstBreak(keys: SequenceKeys): number {
    for (let k = 0; k < keys.ids.length; k++) {
      const [id, code] = [keys.ids[k] ?? 0, keys.codes[k] ?? ""];
      if (this.#code !== undefined && !(this.#id < id && compareDigits(this.#code, code) < 0)) return k;
      [this.#id, this.#code] = [id, code];
    }
    return -1;
  }

  /** Whether `id` is lower than the previous record's (input out of id order, not a broken rule). */
  descends(id: number): boolean {
    return this.#code !== undefined && id < this.#id;
  }

  /**
   * Appends a problem for each broken rule among `keys`, located at the later record with the
   * earlier one's place in the hint. A record repeating the previous id is reported for its id only.
   */
  locate(keys: PlacedKeys, files: readonly SourceFile[], problems: ProblemSink): void {
    for (let k = 0; k < keys.ids.length; k++) {
      const [id, code] = [keys.ids[k] ?? 0, keys.codes[k] ?? ""];
      const place = locate(files[keys.files[k] ?? 0] as SourceFile, keys.positions[k]);
      const trimmed = code.replace(/^0+(?=.)/, "");
      const seen = this.#first.get(trimmed);
      const [before, previous] = [this.#place, this.#code ?? ""];
      if (before !== undefined && id === this.#id) {
        problems.push({ severity: "error", ...place, field: "id", value: showValue(id), expected: "a unique id", hint: `also at ${formatLocation(before)}` });
      } else if (seen !== undefined) {
        const hint = `${showValue(seen.code)} is also id ${seen.id}'s, at ${formatLocation(seen.place)}`;
        problems.push({ severity: "error", ...place, field: "jedinstvena_oznaka", value: showValue(code), expected: "a unique value", hint });
      } else if (before !== undefined && compareDigits(previous, code) >= 0) {
        const hint = `id ${this.#id}, just before id ${id}, is at ${formatLocation(before)}`;
        problems.push({ severity: "error", ...place, field: "jedinstvena_oznaka", value: showValue(code), expected: `more than ${showValue(previous)}, as it increases with id`, hint });
      }
      if (seen === undefined) this.#first.set(trimmed, { id, code, place });
      [this.#id, this.#code, this.#place] = [id, code, place];
    }
  }
}
