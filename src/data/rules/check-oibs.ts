/**
 * Two subjects with one OIB: the same institution entered twice (a new id and code, the same name
 * and OIB) would otherwise pass silently. A warning, not an error: a registry may hold two bodies
 * of one legal person. The later record is warned at, naming both (id and code of each).
 *
 * Every OIB seen is kept with its first holder in typed arrays (OibCheck): about 27 bytes a
 * subject (it was 50), the one part of a read that grows with the list.
 */
import { msg } from "../../common/messages/message.ts";
import type { Problem, ProblemSink } from "../problems/problems.ts";
import { formatLocation, showValue } from "../problems/problem-parts.ts";
import { placeInCells } from "../sources/sheet-cells.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";

/** The keys of a block's records, as the reader hands them on. */
export interface OibKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
  readonly oibs: readonly string[];
  readonly positions: ArrayLike<number>;
  /** The records' rendered bytes and where each ends (a block's), to name a subject warned at; without them it goes unnamed. */
  readonly bytes?: Uint8Array;
  readonly ends?: ArrayLike<number>;
}

/** An id or code too large for 32 bits: kept aside, by holder (a registry's are far smaller). */
const ASIDE = 0xffffffff;
const TWO_32 = 4294967296;

/** Each OIB's first holder; warns at every later one. */
export class OibCheck {
  /**
   * An open-addressing table of every OIB seen (a power of two of slots, at most half full), each
   * slot its first holder's number + 1 (0 marks a free slot); the OIB itself is the holder's. Four
   * bytes a slot: a million subjects cost about 8 MB here, and no object, string or garbage.
   */
  #slots = new Uint32Array(1 << 12);
  #size = 0;
  /**
   * The first holders, by number: the OIB + 1 (11 digits: its low 32 bits and the rest, at most 5),
   * id, position, and the code as a number and its width (a code is digits, zero-padded). 18 bytes
   * a holder, in pages that are added, never copied; the file is found from where each file's
   * holders start (#runStarts).
   */
  readonly #low = new Column((n) => new Uint32Array(n));
  readonly #high = new Column((n) => new Uint8Array(n));
  readonly #ids = new Column((n) => new Uint32Array(n));
  readonly #positions = new Column((n) => new Uint32Array(n));
  readonly #codes = new Column((n) => new Uint32Array(n));
  readonly #widths = new Column((n) => new Uint8Array(n));
  readonly #idsAside = new Map<number, number>();
  readonly #codesAside = new Map<number, string>();
  /** Each run of blocks from one file: the number of its first holder, and the file's number. */
  readonly #runStarts: number[] = [];
  readonly #runFiles: number[] = [];
  readonly #fileNumbers = new Map<SourceFile, number>();
  readonly #fileList: SourceFile[] = [];

  /** Checks the records of one block of `file`, warning (an error when `strict`) at each OIB seen before. */
  add(keys: OibKeys, file: SourceFile, strict: boolean, problems: ProblemSink): void {
    let fileNumber = this.#fileNumbers.get(file);
    if (fileNumber === undefined) this.#fileNumbers.set(file, (fileNumber = this.#fileList.push(file) - 1));
    if (this.#runFiles[this.#runFiles.length - 1] !== fileNumber) {
      this.#runStarts.push(this.#size);
      this.#runFiles.push(fileNumber);
    }
    for (let k = 0; k < keys.oibs.length; k++) {
      const oib = keys.oibs[k] ?? "";
      // "": a record held only for its keys (it has an error of its own).
      if (oib === "") continue;
      const [id, code, position] = [keys.ids[k] ?? 0, keys.codes[k] ?? "", keys.positions[k] ?? 0];
      // Stored as OIB + 1, so 0 can mark a free slot even for 00000000000.
      const first = this.#firstHolder(Number(oib) + 1, id, code, position);
      // The same record in two sources: the id rule says so (check-sequence.ts), once for the whole file.
      if (first < 0 || this.#idOf(first) === id) continue;
      const firstFile = this.#fileList[this.#fileOf(first)] as SourceFile;
      const firstAt = this.#positions.get(first);
      // A spreadsheet's record is its row, said as a row: `subjekti!47:47` read as a range.
      const where =
        firstFile.sheet === undefined
          ? { where: formatLocation(placed(firstFile, firstAt)) }
          : { where: `${firstFile.name}!${firstFile.sheet.name}`, row: firstAt };
      const hint = msg("hint.same-oib", { id, code, otherId: this.#idOf(first), otherCode: this.#codeOf(first), ...where });
      const name = nameOf(keys, k);
      problems.push({
        severity: strict ? "error" : "warning",
        ...placed(file, position, "oib"),
        field: "oib",
        value: showValue(oib),
        expected: msg("expected.one-subject-oib"),
        hint,
        ...(name === undefined ? {} : { subject: { id, name } }),
      });
    }
  }

  /** The number of `oib`'s first holder, or -1 when `oib` is new (then this record is its first holder). */
  #firstHolder(oib: number, id: number, code: string, position: number): number {
    if (this.#size * 2 >= this.#slots.length) this.#grow();
    const mask = this.#slots.length - 1;
    const [low, high] = [oib >>> 0, Math.floor(oib / TWO_32)];
    for (let slot = hash(low, high) & mask; ; slot = (slot + 1) & mask) {
      const held = this.#slots[slot] ?? 0;
      if (held !== 0) {
        if (this.#low.get(held - 1) === low && this.#high.get(held - 1) === high) return held - 1;
        continue;
      }
      const n = this.#size++;
      this.#slots[slot] = n + 1;
      this.#low.set(n, low);
      this.#high.set(n, high);
      if (Number.isInteger(id) && id >= 0 && id < ASIDE) {
        this.#ids.set(n, id);
      } else {
        this.#ids.set(n, ASIDE);
        this.#idsAside.set(n, id);
      }
      this.#positions.set(n, position);
      // Nine digits always fit 32 bits.
      if (code.length <= 9) {
        this.#codes.set(n, Number(code));
        this.#widths.set(n, code.length);
      } else {
        this.#codes.set(n, ASIDE);
        this.#codesAside.set(n, code);
      }
      return -1;
    }
  }

  /** The id of holder `n`. */
  #idOf(n: number): number {
    const id = this.#ids.get(n);
    return id === ASIDE ? (this.#idsAside.get(n) ?? id) : id;
  }

  /** The code of holder `n`, as it was written. */
  #codeOf(n: number): string {
    return this.#codesAside.get(n) ?? String(this.#codes.get(n)).padStart(this.#widths.get(n), "0");
  }

  /** The file number of holder `n`: the last run that starts at or before it. */
  #fileOf(n: number): number {
    let [lo, hi] = [0, this.#runStarts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.#runStarts[mid] ?? 0) <= n) lo = mid;
      else hi = mid - 1;
    }
    return this.#runFiles[lo] ?? 0;
  }

  #grow(): void {
    this.#slots = new Uint32Array(this.#slots.length * 2);
    const mask = this.#slots.length - 1;
    // Every holder placed again, from its own OIB: the old table is not needed.
    for (let n = 0; n < this.#size; n++) {
      let slot = hash(this.#low.get(n), this.#high.get(n)) & mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
      this.#slots[slot] = n + 1;
    }
  }
}

/** Holders a page: 65,536 (1.2 MB of the six columns); a list's last page is the only one part empty. */
const PAGE_BITS = 16;
const PAGE_MASK = (1 << PAGE_BITS) - 1;

/**
 * One number of every holder, in pages: growing adds a page and copies nothing, so a million
 * subjects never hold an old and a new array at once (doubling arrays did: 39 MB at the peak, not 26).
 */
class Column<T extends Uint8Array | Uint32Array> {
  readonly #pages: T[] = [];
  readonly #make: (length: number) => T;

  constructor(make: (length: number) => T) {
    this.#make = make;
  }

  get(n: number): number {
    return this.#pages[n >>> PAGE_BITS]?.[n & PAGE_MASK] ?? 0;
  }

  set(n: number, value: number): void {
    const page = n >>> PAGE_BITS;
    (this.#pages[page] ??= this.#make(1 << PAGE_BITS))[n & PAGE_MASK] = value;
  }
}

/** A slot for an OIB: its low and high 32 bits mixed (multiplicative hashing). */
function hash(low: number, high: number): number {
  return Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ (low >>> 16);
}

/** The name of record `k` of a block, from its rendered bytes (read only for a record warned at: a few). */
function nameOf(keys: OibKeys, k: number): string | undefined {
  if (keys.bytes === undefined || keys.ends === undefined) return undefined;
  const end = keys.ends[k];
  if (end === undefined) return undefined;
  const record: unknown = JSON.parse(new TextDecoder().decode(keys.bytes.subarray(k === 0 ? 0 : (keys.ends[k - 1] ?? 0), end)));
  const name = (record as { naziv_subjekta?: unknown }).naziv_subjekta;
  return typeof name === "string" ? name : undefined;
}

/** Where a record (or one of its fields) is: its cell when the file is a spreadsheet. */
function placed(file: SourceFile, position: number, field?: string): Pick<Problem, "file" | "index" | "line" | "cell"> {
  const where: Problem[] = [
    {
      severity: "warning",
      ...locate(file, position),
      ...(field === undefined ? {} : { field }),
      expected: msg("expected.one-subject-oib"),
    },
  ];
  if (file.sheet !== undefined) placeInCells(where, 0, file.sheet, position);
  const { file: name, index, line, cell } = where[0] as Problem;
  return {
    file: name,
    ...(index === undefined ? {} : { index }),
    ...(line === undefined ? {} : { line }),
    ...(cell === undefined ? {} : { cell }),
  };
}
