/**
 * The rules that span records (the README's data rules): ids unique, `jedinstvena_oznaka` unique and
 * strictly increasing with id. They run once every file is read, on the records' keys in id order,
 * with each record's origin kept compactly (two numbers, not a location object per record).
 */
import { formatLocation, type Problem, type ProblemSink, showValue } from "./problems.ts";
import { sortedIndex } from "./id-order.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Where each accepted record came from: its file's number and its index or line, in typed arrays. */
export class RecordOrigins {
  #files = new Uint32Array(1024);
  #positions = new Uint32Array(1024);
  length = 0;

  /** Records the origin of the next accepted subject. */
  push(file: number, position: number): void {
    if (this.length === this.#files.length) {
      const files = new Uint32Array(this.length * 2);
      files.set(this.#files);
      this.#files = files;
      const positions = new Uint32Array(this.length * 2);
      positions.set(this.#positions);
      this.#positions = positions;
    }
    this.#files[this.length] = file;
    this.#positions[this.length] = position;
    this.length++;
  }

  /** Every record's position in its file (index or line), in reading order. */
  get positions(): Uint32Array {
    return this.#positions.subarray(0, this.length);
  }

  /** The problem location of record `i`. */
  place(i: number, files: readonly SourceFile[]): Pick<Problem, "file" | "index" | "line"> {
    const file = files[this.#files[i] ?? 0];
    if (file === undefined) throw new RangeError(`no origin for record ${i}`);
    return locate(file, this.#positions[i]);
  }
}

/** Compares zero-padded digit strings by value, so "10000" follows "9999" whatever the padding. */
export function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, "");
  const y = b.replace(/^0+(?=.)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The rules across records for records taken in id order (a streamed read): only the previous
 * record's id and code are kept. A record that does not follow its predecessor (an id not rising,
 * or a code not rising with it) means input out of id order or a broken rule: the records must
 * then be read whole (readRecords, checkSequence) to be put in order or to locate the problems.
 */
export class StreamedSequence {
  #id = 0;
  #code: string | undefined;

  /** The index of the first of `keys`'s records that does not follow the one before, or -1 when all do. */
  firstBreak(keys: { readonly ids: ArrayLike<number>; readonly codes: readonly string[] }): number {
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
}

/** Record numbers in id order; when the input is already ascending (the usual case) no sort at all. */
function idOrder(ids: ArrayLike<number>): Uint32Array | undefined {
  let ascending = true;
  for (let i = 1; i < ids.length && ascending; i++) ascending = (ids[i - 1] ?? 0) < (ids[i] ?? 0);
  // Ties (duplicate ids) keep reading order, so the first one read is the one reported as seen first.
  return ascending ? undefined : sortedIndex(ids);
}

/** The two keys of every record, in reading order: all the cross-record rules look at. */
export interface RecordKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
}

/**
 * Appends a problem for each broken cross-record rule, located at the later record with the
 * earlier one's location in the hint; returns the record numbers in id order (undefined: they
 * already are).
 */
export function checkSequence(keys: RecordKeys, origins: RecordOrigins, files: readonly SourceFile[], problems: ProblemSink): Uint32Array | undefined {
  const order = idOrder(keys.ids);
  const at = (k: number): number => (order === undefined ? k : (order[k] ?? 0));
  const id = (k: number): number => keys.ids[at(k)] ?? 0;
  const code = (k: number): string => keys.codes[at(k)] ?? "";
  const where = (k: number): Pick<Problem, "file" | "index" | "line"> => origins.place(at(k), files);
  const count = keys.ids.length;

  let increasing = true;
  for (let k = 1; k < count; k++) {
    if (id(k - 1) === id(k)) {
      problems.push({ severity: "error", ...where(k), field: "id", value: showValue(id(k)), expected: "a unique id", hint: `also at ${formatLocation(where(k - 1))}` });
    } else if (compareDigits(code(k - 1), code(k)) >= 0) {
      increasing = false;
    }
  }
  if (increasing) return order;

  // Something is out of order: tell duplicates (anywhere) apart from values merely out of step.
  const first = new Map<string, number>();
  for (let k = 0; k < count; k++) {
    const key = code(k).replace(/^0+(?=.)/, "");
    if (!first.has(key)) first.set(key, k);
  }
  for (let k = 1; k < count; k++) {
    const seen = first.get(code(k).replace(/^0+(?=.)/, "")) ?? k;
    if (seen !== k) {
      problems.push({ severity: "error", ...where(k), field: "jedinstvena_oznaka", value: showValue(code(k)), expected: "a unique value", hint: `${showValue(code(seen))} is also id ${id(seen)}'s, at ${formatLocation(where(seen))}` });
    } else if (id(k - 1) !== id(k) && compareDigits(code(k - 1), code(k)) >= 0) {
      problems.push({ severity: "error", ...where(k), field: "jedinstvena_oznaka", value: showValue(code(k)), expected: `more than ${showValue(code(k - 1))}, as it increases with id`, hint: `id ${id(k - 1)}, just before id ${id(k)}, is at ${formatLocation(where(k - 1))}` });
    }
  }
  return order;
}
