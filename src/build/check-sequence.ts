/**
 * The rules that span records (CONTRACT §6): ids unique, `jedinstvena_oznaka` unique and
 * strictly increasing with id. They run once every file is read, on the subjects in id order,
 * with each record's origin kept compactly (two numbers, not a location object per record).
 */
import { formatLocation, type Problem, showValue } from "./problems.ts";
import { locate, type SourceFile } from "./source-file.ts";
import type { Subject } from "./subject-schema.ts";

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

  /** The problem location of record `i`. */
  place(i: number, files: readonly SourceFile[]): Pick<Problem, "file" | "index" | "line"> {
    const file = files[this.#files[i] ?? 0];
    if (file === undefined) throw new RangeError(`no origin for record ${i}`);
    return locate(file, this.#positions[i]);
  }
}

/** Compares zero-padded digit strings by value, so "10000" follows "9999" whatever the padding. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, "");
  const y = b.replace(/^0+(?=.)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Record numbers in id order; when the input is already ascending (the usual case) no sort at all. */
function idOrder(subjects: readonly Subject[]): Uint32Array | undefined {
  let ascending = true;
  for (let i = 1; i < subjects.length && ascending; i++) ascending = (subjects[i - 1]?.id ?? 0) < (subjects[i]?.id ?? 0);
  if (ascending) return undefined;
  const order = new Uint32Array(subjects.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  // Ties (duplicate ids) keep reading order, so the first one read is the one reported as seen first.
  return order.sort((a, b) => (subjects[a]?.id ?? 0) - (subjects[b]?.id ?? 0) || a - b);
}

/**
 * Sorts `subjects` by id and appends a problem for each broken cross-record rule, located at the
 * later record with the earlier one's location in the hint; returns the subjects in id order.
 */
export function checkSequence(subjects: readonly Subject[], origins: RecordOrigins, files: readonly SourceFile[], problems: Problem[]): Subject[] {
  const order = idOrder(subjects);
  const at = (k: number): number => (order === undefined ? k : (order[k] ?? 0));
  const sorted = order === undefined ? [...subjects] : Array.from(order, (i) => subjects[i] as Subject);
  const where = (k: number): Pick<Problem, "file" | "index" | "line"> => origins.place(at(k), files);

  let increasing = true;
  for (let k = 1; k < sorted.length; k++) {
    const [previous, current] = [sorted[k - 1] as Subject, sorted[k] as Subject];
    if (previous.id === current.id) {
      problems.push({ severity: "error", ...where(k), field: "id", value: showValue(current.id), expected: "a unique id", hint: `also at ${formatLocation(where(k - 1))}` });
    } else if (compareDigits(previous.jedinstvena_oznaka, current.jedinstvena_oznaka) >= 0) {
      increasing = false;
    }
  }
  if (increasing) return sorted;

  // Something is out of order: tell duplicates (anywhere) apart from values merely out of step.
  const first = new Map<string, number>();
  for (let k = 0; k < sorted.length; k++) {
    const key = (sorted[k] as Subject).jedinstvena_oznaka.replace(/^0+(?=.)/, "");
    if (!first.has(key)) first.set(key, k);
  }
  for (let k = 1; k < sorted.length; k++) {
    const [previous, current] = [sorted[k - 1] as Subject, sorted[k] as Subject];
    const seen = first.get(current.jedinstvena_oznaka.replace(/^0+(?=.)/, "")) ?? k;
    if (seen !== k) {
      const other = sorted[seen] as Subject;
      problems.push({ severity: "error", ...where(k), field: "jedinstvena_oznaka", value: showValue(current.jedinstvena_oznaka), expected: "a unique value", hint: `${showValue(other.jedinstvena_oznaka)} is also id ${other.id}'s, at ${formatLocation(where(seen))}` });
    } else if (previous.id !== current.id && compareDigits(previous.jedinstvena_oznaka, current.jedinstvena_oznaka) >= 0) {
      problems.push({ severity: "error", ...where(k), field: "jedinstvena_oznaka", value: showValue(current.jedinstvena_oznaka), expected: `more than ${showValue(previous.jedinstvena_oznaka)}, as it increases with id`, hint: `id ${previous.id}, just before id ${current.id}, is at ${formatLocation(where(k - 1))}` });
    }
  }
  return sorted;
}
