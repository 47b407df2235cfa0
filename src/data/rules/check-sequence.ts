/**
 * The rules that span records (the data rules, docs/data.md): ids unique, `jedinstvena_oznaka` unique and
 * strictly increasing with id. They are checked on records taken in id order (ties in reading
 * order), keeping only the previous record: a stream of any length in flat memory. Locating every
 * broken rule also keeps each code's first record, to tell a code given twice from one out of step.
 */
import { kindKey, KEEP_PER_KIND, type Problem, type ProblemCollector, type ProblemSink } from "../problems/problems.ts";
import { formatLocation, showValue } from "../problems/problem-parts.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";
import { msg } from "../../common/messages/message.ts";
import { compareDigits } from "./compare-digits.ts";
import { codeAt, type KnownKeys } from "./block-keys.ts";

/** The keys of records in id order. */
export interface SequenceKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
  /** A block from the build cache: when its records follow one another, only its first is compared (and `codes` not read). */
  readonly known?: Pick<KnownKeys, "rising" | "codeBytes" | "codeEnds">;
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
  #file = -1;
  /** Locating only: records with keys in each file (by its number). */
  readonly #perFile = new Map<number, number>();
  /**
   * Locating only: a record repeating the one before it in another file (same id, same code), by
   * the pair of files (`earlier>later`): the first few problems held, the rest counted. When every
   * record of the later file repeats one of the earlier, it is one line, not thousands (finish).
   */
  readonly #repeats = new Map<string, { readonly held: Problem[]; count: number }>();
  /** Locating only: each code (its zeros trimmed) with its first record's id and place. */
  readonly #first = new Map<string, { readonly id: number; readonly code: string; readonly place: Place }>();

  /** The index of the first of `keys`'s records that does not follow the one before, or -1 when all do. */
  firstBreak(keys: SequenceKeys): number {
    const n = keys.ids.length;
    if (keys.known?.rising === true && n > 0) {
      // Each record follows the one before: the block follows when its first does, and ends at its last.
      const [first, last] = [keys.ids[0] ?? 0, keys.ids[n - 1] ?? 0];
      if (this.#code !== undefined && !(this.#id < first && compareDigits(this.#code, codeAt(keys.known, 0)) < 0)) return 0;
      [this.#id, this.#code] = [last, codeAt(keys.known, n - 1)];
      return -1;
    }
    // Read once: a cached block's codes are made on first use.
    const codes = keys.codes;
    for (let k = 0; k < n; k++) {
      const [id, code] = [keys.ids[k] ?? 0, codes[k] ?? ""];
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
      const fileNumber = keys.files[k] ?? 0;
      this.#perFile.set(fileNumber, (this.#perFile.get(fileNumber) ?? 0) + 1);
      // The same id again: held per pair of files when the whole record repeats another file's (one line then), else told here.
      const repeatedId = (at: Place): Problem => ({
        severity: "error",
        ...place,
        field: "id",
        value: showValue(id),
        expected: msg("expected.unique-id"),
        hint: msg("hint.also-at", { where: formatLocation(at) }),
      });
      if (before !== undefined && id === this.#id && code === previous && fileNumber !== this.#file) {
        const pair = `${this.#file}>${fileNumber}`;
        let repeat = this.#repeats.get(pair);
        if (repeat === undefined) this.#repeats.set(pair, (repeat = { held: [], count: 0 }));
        repeat.count++;
        if (repeat.held.length < KEEP_PER_KIND) repeat.held.push(repeatedId(before));
      } else if (before !== undefined && id === this.#id) {
        problems.push(repeatedId(before));
      } else if (seen !== undefined) {
        const hint = msg("hint.code-also", { code: showValue(seen.code), id: seen.id, where: formatLocation(seen.place) });
        problems.push({
          severity: "error",
          ...place,
          field: "jedinstvena_oznaka",
          value: showValue(code),
          expected: msg("expected.unique-code"),
          hint,
        });
      } else if (before !== undefined && compareDigits(previous, code) >= 0) {
        const hint = msg("hint.just-before", { previous: this.#id, id, where: formatLocation(before) });
        problems.push({
          severity: "error",
          ...place,
          field: "jedinstvena_oznaka",
          value: showValue(code),
          expected: msg("expected.code-rising", { previous: showValue(previous) }),
          hint,
        });
      }
      if (seen === undefined) this.#first.set(trimmed, { id, code, place });
      [this.#id, this.#code, this.#place, this.#file] = [id, code, place, fileNumber];
    }
  }

  /**
   * After `locate` saw every record: a file whose every record repeats one of an earlier file (a
   * workbook exported beside the JSON it came from) is one error naming both; other repeats are
   * reported one by one, as any repeated id.
   */
  finish(files: readonly SourceFile[], problems: ProblemCollector): void {
    for (const [pair, repeat] of this.#repeats) {
      const [earlier, later] = pair.split(">").map(Number) as [number, number];
      const [first, second] = [files[earlier] as SourceFile, files[later] as SourceFile];
      if (repeat.count === this.#perFile.get(later)) {
        problems.push({
          severity: "error",
          file: second.name,
          expected: msg("expected.records-once"),
          says: msg("says.repeats-source", { other: first.name }),
        });
        continue;
      }
      const dropped = repeat.count - repeat.held.length;
      problems.merge(repeat.held, dropped > 0 && repeat.held[0] !== undefined ? { [kindKey(repeat.held[0])]: dropped } : {});
    }
    this.#repeats.clear();
  }
}
