/**
 * Two subjects with one OIB: the same institution entered twice (a new id and code, the same name
 * and OIB) would otherwise pass silently. A warning, not an error: a registry may hold two bodies
 * of one legal person. The later record is warned at, naming both (id and code of each).
 *
 * Every OIB seen is kept with its first holder in typed arrays (OibCheck): about 50 bytes a
 * subject, the one part of a read that grows with the list.
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
}

/** Each OIB's first holder; warns at every later one. */
export class OibCheck {
  /**
   * An open-addressing table of every OIB seen (a power of two of slots, at most half full): the
   * OIB + 1 as a double (11 digits fit exactly; 0 marks a free slot), and its first holder's number in the arrays below. No object or string a record:
   * a million subjects cost about 50 MB, and no garbage.
   */
  #keys = new Float64Array(1 << 12);
  #slots = new Int32Array(1 << 12);
  #size = 0;
  /**
   * The first holders, by number: id, file, position, and the code as a number and its width (a
   * code is digits, zero-padded: 15 of them fit a double exactly; a longer one is kept as text).
   */
  #ids = new Float64Array(1 << 11);
  #files = new Uint16Array(1 << 11);
  #positions = new Uint32Array(1 << 11);
  #codes = new Float64Array(1 << 11);
  #widths = new Uint8Array(1 << 11);
  readonly #longCodes = new Map<number, string>();
  readonly #fileNumbers = new Map<SourceFile, number>();
  readonly #fileList: SourceFile[] = [];

  /** Checks the records of one block of `file`, warning (an error when `strict`) at each OIB seen before. */
  add(keys: OibKeys, file: SourceFile, strict: boolean, problems: ProblemSink): void {
    let fileNumber = this.#fileNumbers.get(file);
    if (fileNumber === undefined) this.#fileNumbers.set(file, (fileNumber = this.#fileList.push(file) - 1));
    for (let k = 0; k < keys.oibs.length; k++) {
      const oib = keys.oibs[k] ?? "";
      // "": a record held only for its keys (it has an error of its own).
      if (oib === "") continue;
      const [id, code, position] = [keys.ids[k] ?? 0, keys.codes[k] ?? "", keys.positions[k] ?? 0];
      // Stored as OIB + 1, so 0 can mark a free slot even for 00000000000.
      const first = this.#firstHolder(Number(oib) + 1, id, code, fileNumber, position);
      // The same record in two sources: the id rule says so (check-sequence.ts), once for the whole file.
      if (first < 0 || this.#ids[first] === id) continue;
      const where = formatLocation(placed(this.#fileList[this.#files[first] ?? 0] as SourceFile, this.#positions[first] ?? 0));
      const hint = msg("hint.same-oib", { id, code, otherId: this.#ids[first] ?? 0, otherCode: this.#codeOf(first), where });
      problems.push({
        severity: strict ? "error" : "warning",
        ...placed(file, position, "oib"),
        field: "oib",
        value: showValue(oib),
        expected: msg("expected.one-subject-oib"),
        hint,
      });
    }
  }

  /** The number of `oib`'s first holder, or -1 when `oib` is new (then this record is its first holder). */
  #firstHolder(oib: number, id: number, code: string, file: number, position: number): number {
    if (this.#size * 2 >= this.#keys.length) this.#grow();
    const mask = this.#keys.length - 1;
    for (let slot = hash(oib) & mask; ; slot = (slot + 1) & mask) {
      const key = this.#keys[slot] ?? 0;
      if (key === oib) return this.#slots[slot] ?? -1;
      if (key !== 0) continue;
      const n = this.#size++;
      if (n === this.#ids.length) this.#growHolders();
      this.#keys[slot] = oib;
      this.#slots[slot] = n;
      this.#ids[n] = id;
      this.#files[n] = file;
      this.#positions[n] = position;
      if (code.length <= 15) {
        this.#codes[n] = Number(code);
        this.#widths[n] = code.length;
      } else {
        this.#longCodes.set(n, code);
      }
      return -1;
    }
  }

  /** The code of holder `n`, as it was written. */
  #codeOf(n: number): string {
    return this.#longCodes.get(n) ?? String(this.#codes[n] ?? 0).padStart(this.#widths[n] ?? 0, "0");
  }

  #grow(): void {
    const [keys, slots] = [this.#keys, this.#slots];
    this.#keys = new Float64Array(keys.length * 2);
    this.#slots = new Int32Array(keys.length * 2);
    const mask = this.#keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] ?? 0;
      if (key === 0) continue;
      let slot = hash(key) & mask;
      while (this.#keys[slot] !== 0) slot = (slot + 1) & mask;
      this.#keys[slot] = key;
      this.#slots[slot] = slots[i] ?? 0;
    }
  }

  #growHolders(): void {
    const grow = <T extends Float64Array | Uint8Array | Uint16Array | Uint32Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.#ids = grow(this.#ids, (n) => new Float64Array(n));
    this.#files = grow(this.#files, (n) => new Uint16Array(n));
    this.#positions = grow(this.#positions, (n) => new Uint32Array(n));
    this.#codes = grow(this.#codes, (n) => new Float64Array(n));
    this.#widths = grow(this.#widths, (n) => new Uint8Array(n));
  }
}

/** A slot for an OIB: its low and high 32 bits mixed (multiplicative hashing). */
function hash(oib: number): number {
  const low = oib >>> 0;
  const high = Math.floor(oib / 4294967296);
  return Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b) ^ (low >>> 16);
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
