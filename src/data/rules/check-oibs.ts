/**
 * Two subjects with one OIB: the same institution entered twice (a new id and code, the same name
 * and OIB) would otherwise pass silently. A warning, not an error: a registry may hold two bodies
 * of one legal person. The later record is warned at, naming both (id and code of each).
 *
 * In flat memory: each OIB is written with its holder's keys into one of PARTS parts by its value,
 * each part one buffer held in memory, appended to its scratch file and used again once it holds
 * PART_BYTES. When the read has ended, each part is read back alone and sorted by OIB, then by
 * reading order, so two holders of an OIB meet; the warnings are added in reading order, as they
 * would have been one by one. A list of 5M subjects holds one part at a time (about 2.5 MB), where
 * a table of every OIB held about 27 bytes a subject (130 MB at 5M).
 *
 * A block from the build cache has its rendered bytes on disk, not in memory: its subjects' names
 * are not looked up as it is taken (that read every cached block's bytes, some 300 MB at 1M, for
 * the few names a warning shows), but where each record lies is kept, and only the names of the
 * subjects warned at are read back, each record's bytes alone (OibKeys.reread). A part is searched for repeated OIBs by a
 * table of its numbers alone; only their holders are made into objects and compared.
 */
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { msg } from "../../common/messages/message.ts";
import { WholeFiles } from "../../common/read-into.ts";
import { makeScratchDir, type ScratchDir } from "../../common/scratch-dir.ts";
import { utf8Length, writeUtf8 } from "../../common/utf8-text.ts";
import type { Problem, ProblemSink } from "../problems/problems.ts";
import { formatLocation, showValue } from "../problems/problem-parts.ts";
import { placeInCells } from "../sources/sheet-cells.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";
import { type KnownKeys, NO_OIB } from "./block-keys.ts";

/** The keys of a block's records, as the reader hands them on. */
export interface OibKeys {
  readonly ids: ArrayLike<number>;
  readonly codes: readonly string[];
  readonly oibs: readonly string[];
  readonly positions: ArrayLike<number>;
  /** The records' rendered bytes and where each ends, to name a subject warned at; without them it goes unnamed. */
  readonly bytes?: Uint8Array;
  readonly ends?: ArrayLike<number>;
  /**
   * Reads the block's rendered bytes `[start, end)` again, without keeping them: given for a block
   * whose bytes are not in memory (one from the build cache), so that only the records of subjects
   * warned at are read.
   */
  readonly reread?: (start: number, end: number) => Uint8Array;
  /** A block from the build cache: its OIBs as numbers and its codes as bytes, read instead of `oibs` and `codes`. */
  readonly known?: Pick<KnownKeys, "oibs" | "codeBytes" | "codeEnds">;
}

/** Parts the OIBs are split into (by value): at 10M subjects one holds some 5 MB. */
const PARTS = 64;
/**
 * Bytes a part holds in memory before they are appended to its file (8 MB in all parts: a
 * list of some 130k subjects spills none). Each part is one buffer, grown to this and then used again, not a buffer
 * a block spilled and joined: fresh memory costs a page fault a 4 KB page (on the VM measured, some
 * 10-20 us each), and a buffer a block and part, joined again to spill, was some 110 MB allocated
 * at a million subjects (perf put 5-10% of an edit's page faults there).
 */
const PART_BYTES = 128 * 1024;
/** A part's buffer when it is first needed (grown by doubling to PART_BYTES: a small list holds little). */
const FIRST_PART_BYTES = 8 * 1024;
/**
 * An entry: OIB (float64), id (float64), reading order, position, file, the code's length, the
 * name's, the block to read the name from later (0: none, the name is here) and the record's start
 * and end in that block's bytes (uint32 each), then the code and the name as the record's JSON has it
 * (escaped: decoded only for a subject warned at).
 */
const HEAD = 48;
/** The filter of repeated OIBs in a part: by their values' low bits. */
const LOW_BITS = 1 << 16;
/** Where a rendered record's name begins (its fields are in the model's order, the name third). */
const NAME_KEY = Buffer.from('"naziv_subjekta":"');

/** One holder of an OIB, read back from its part. */
interface Holder {
  readonly oib: number;
  readonly id: number;
  readonly order: number;
  readonly position: number;
  readonly file: number;
  readonly code: string;
  /** The name as its record's JSON writes it, without the quotes ("" when unknown). */
  readonly name: string;
  /** When the name is read later: the block's number in OibCheck's rereads (1 on), and the record's bytes there. */
  readonly later: { readonly block: number; readonly start: number; readonly end: number } | undefined;
}

/** A part's entries held in memory: `bytes[0, length)`, the rest of the buffer room for more. */
interface Held {
  bytes: Buffer;
  /** `bytes` seen as numbers: a DataView, as Buffer's write methods check their arguments on each of a million calls. */
  view: DataView;
  length: number;
}

/** `held` holding nothing, its buffer let go. */
function emptied(held: Held): Held {
  [held.bytes, held.view, held.length] = [NO_BYTES, new DataView(NO_BYTES.buffer, NO_BYTES.byteOffset, 0), 0];
  return held;
}

/** Grows `held`'s buffer to take `size` more bytes after those it holds (doubling, to PART_BYTES; more for a larger block's entries). */
function grow(held: Held, size: number): void {
  const grown = Buffer.allocUnsafeSlow(Math.max(held.length + size, Math.min(PART_BYTES, 2 * held.bytes.length), FIRST_PART_BYTES));
  held.bytes.copy(grown, 0, 0, held.length);
  [held.bytes, held.view] = [grown, new DataView(grown.buffer, grown.byteOffset, grown.length)];
}

/** Each OIB's holders, compared once the read has ended (finish): warns at every holder after the first. */
export class OibCheck {
  readonly #held: Held[] = Array.from({ length: PARTS }, () => emptied({} as Held));
  /** Parts with a scratch file (spilled at least once), and the bytes appended to it. */
  readonly #spilled = new Map<number, number>();
  /** Each block's parts and OIBs, kept from block to block (grown for a larger one). */
  #parts = new Int8Array(0);
  #values = new Float64Array(0);
  /** What a spilled part's file is read back into (finish), one part at a time. */
  #readBack = new WholeFiles();
  #scratch: ScratchDir | undefined;
  #order = 0;
  #strict = false;
  readonly #fileNumbers = new Map<SourceFile, number>();
  readonly #fileList: SourceFile[] = [];
  /** How to read the bytes of each block whose names were left for later (an entry's block 1 is the first). */
  readonly #rereads: ((start: number, end: number) => Uint8Array)[] = [];

  /** Takes the records of one block of `file` (the warnings are errors when `strict`). */
  async add(keys: OibKeys, file: SourceFile, strict: boolean): Promise<void> {
    this.#strict = strict;
    let fileNumber = this.#fileNumbers.get(file);
    if (fileNumber === undefined) this.#fileNumbers.set(file, (fileNumber = this.#fileList.push(file) - 1));
    // Two passes: each record's part and its bytes there, then one buffer a part, written in place.
    const { known } = keys;
    const n = known === undefined ? keys.oibs.length : known.oibs.length;
    if (this.#parts.length < n) [this.#parts, this.#values] = [new Int8Array(n), new Float64Array(n)];
    const parts = this.#parts.fill(-1, 0, n);
    const sizes = new Uint32Array(PARTS);
    // A cached block's names are read later, for the few warned at: its bytes are not touched here.
    const later = keys.reread !== undefined && keys.ends !== undefined ? this.#rereads.push(keys.reread) : 0;
    // Not `keys.bytes` itself when the names are left for later: a cached block's getter would read them.
    const bytes = later === 0 && keys.bytes !== undefined ? asBuffer(keys.bytes) : undefined;
    const { ends } = keys;
    // No names here (left for later, or no bytes): none kept a record. A cached block's OIBs are numbers already.
    const names = bytes === undefined || ends === undefined ? undefined : new Array<Uint8Array>(n);
    const values = known === undefined ? this.#values : known.oibs;
    for (let k = 0; k < n; k++) {
      // "" (NO_OIB): a record held only for its keys (it has an error of its own).
      const value = known === undefined ? (keys.oibs[k] === "" ? NO_OIB : Number(keys.oibs[k] ?? "")) : (known.oibs[k] as number);
      if (value === NO_OIB) continue;
      if (known === undefined) values[k] = value;
      const part = partOf(value);
      parts[k] = part;
      const name =
        names === undefined || bytes === undefined || ends === undefined
          ? EMPTY
          : (names[k] = nameOf(bytes, startOf(ends, k), ends[k] ?? 0, nameKeyAt(keys.ids[k] ?? 0, keys.codes[k] ?? "")));
      const codeLength = known === undefined ? utf8Length(keys.codes[k] ?? "") : (known.codeEnds[k] as number) - startOf(known.codeEnds, k);
      sizes[part] = (sizes[part] ?? 0) + HEAD + codeLength + name.length;
    }
    // Each part's entries go after those it holds, in room made first (a full part spilled).
    const filled = new Uint32Array(PARTS);
    for (let part = 0; part < PARTS; part++) {
      const size = sizes[part] as number;
      const held = this.#held[part] as Held;
      if (size === 0) continue;
      if (held.length > 0 && held.length + size > PART_BYTES) await this.#spill(part);
      if (held.length + size > held.bytes.length) grow(held, size);
      filled[part] = held.length;
    }
    for (let k = 0; k < n; k++) {
      const part = parts[k] ?? -1;
      if (part < 0) continue;
      const { bytes: entries, view } = this.#held[part] as Held;
      const at = filled[part] ?? 0;
      view.setFloat64(at, values[k] ?? 0, true);
      view.setFloat64(at + 8, keys.ids[k] ?? 0, true);
      view.setUint32(at + 16, this.#order, true);
      view.setUint32(at + 20, keys.positions[k] ?? 0, true);
      view.setUint32(at + 24, fileNumber, true);
      const length = known === undefined ? writeUtf8(keys.codes[k] ?? "", entries, at + HEAD) : copyCode(known, k, entries, at + HEAD);
      view.setUint32(at + 28, length, true);
      const name = names?.[k] ?? EMPTY;
      entries.set(name, at + HEAD + length);
      view.setUint32(at + 32, name.length, true);
      view.setUint32(at + 36, later, true);
      view.setUint32(at + 40, later === 0 || ends === undefined ? 0 : startOf(ends, k), true);
      view.setUint32(at + 44, later === 0 || ends === undefined ? 0 : (ends[k] ?? 0), true);
      filled[part] = at + HEAD + length + name.length;
      this.#order++;
    }
    for (let part = 0; part < PARTS; part++) (this.#held[part] as Held).length += sizes[part] as number;
  }

  /** Appends part `part`'s held entries to its file, emptying its buffer for more. */
  async #spill(part: number): Promise<void> {
    const held = this.#held[part] as Held;
    this.#scratch ??= await makeScratchDir("oibs");
    // Awaited before the buffer is written again: the file system reads it while the write is out.
    await appendFile(join(this.#scratch.path, String(part)), held.bytes.subarray(0, held.length));
    this.#spilled.set(part, (this.#spilled.get(part) ?? 0) + held.length);
    held.length = 0;
  }

  /** Warns (an error when strict) at each holder of an OIB after its first, in reading order; then removes the scratch files. */
  async finish(problems: ProblemSink): Promise<void> {
    try {
      const found: { readonly holder: Holder; readonly first: Holder }[] = [];
      for (let part = 0; part < PARTS; part++) {
        const holders = await this.#repeated(part);
        holders.sort((a, b) => a.oib - b.oib || a.order - b.order);
        for (let k = 1, first = holders[0]; k < holders.length; k++) {
          const holder = holders[k] as Holder;
          if (first === undefined || holder.oib !== first.oib) {
            first = holder;
            continue;
          }
          // The same record in two sources: the id rule says so (check-sequence.ts), once for the whole file.
          if (holder.id === first.id) continue;
          found.push({ holder, first });
        }
      }
      const names = this.#namesLater(found.map(({ holder }) => holder));
      found.sort((a, b) => a.holder.order - b.holder.order);
      for (const { holder, first } of found) problems.push(this.#warning(holder, first, names.get(holder) ?? holder.name));
    } finally {
      await this.dispose();
    }
  }

  /** Removes the scratch files (finish does; a read that fails first calls this). */
  async dispose(): Promise<void> {
    this.#held.forEach(emptied);
    this.#spilled.clear();
    this.#readBack = new WholeFiles();
    this.#rereads.length = 0;
    await this.#scratch?.remove();
    this.#scratch = undefined;
  }

  /** `written`: the name of the subject warned at as its JSON writes it. */
  #warning(holder: Holder, first: Holder, written: string): Problem {
    const file = this.#fileList[holder.file] as SourceFile;
    const firstFile = this.#fileList[first.file] as SourceFile;
    // A spreadsheet's record is its row, said as a row: `subjekti!47:47` read as a range.
    const where =
      firstFile.sheet === undefined
        ? { where: formatLocation(placed(firstFile, first.position)) }
        : { where: `${firstFile.name}!${firstFile.sheet.name}`, row: first.position };
    const hint = msg("hint.same-oib", { id: holder.id, code: holder.code, otherId: first.id, otherCode: first.code, ...where });
    const name = written === "" ? undefined : (JSON.parse(`"${written}"`) as string);
    return {
      severity: this.#strict ? "error" : "warning",
      ...placed(file, holder.position, "oib"),
      field: "oib",
      value: showValue(String(holder.oib).padStart(11, "0")),
      expected: msg("expected.one-subject-oib"),
      hint,
      ...(name === undefined ? {} : { subject: { id: holder.id, name } }),
    };
  }

  /**
   * The names of the subjects warned at whose blocks' bytes were left on disk: each one's record read
   * again alone, in place order (a block's bytes read whole for one name cost 0.4 ms a warning, and
   * the repeated OIBs grow as the square of the list: 2,788 warnings at five million subjects).
   */
  #namesLater(holders: readonly Holder[]): Map<Holder, string> {
    const names = new Map<Holder, string>();
    const later = holders
      .filter((h) => h.later !== undefined)
      .sort((a, b) => (a.later?.block ?? 0) - (b.later?.block ?? 0) || (a.later?.start ?? 0) - (b.later?.start ?? 0));
    for (const holder of later) {
      const { block, start, end } = holder.later as NonNullable<Holder["later"]>;
      const record = (this.#rereads[block - 1] as (start: number, end: number) => Uint8Array)(start, end);
      const name = nameOf(asBuffer(record), 0, record.length);
      names.set(holder, Buffer.from(name.buffer, name.byteOffset, name.length).toString("utf8"));
    }
    return names;
  }

  /**
   * The holders of an OIB held more than once in one part: its file's entries, then those held (in
   * reading order). Its OIBs are met in a table of numbers first, so that only repeated ones make objects.
   */
  async #repeated(part: number): Promise<Holder[]> {
    const held = this.#held[part] as Held;
    const bytes = this.#spilled.has(part) ? await this.#readBackAll(part) : held.bytes.subarray(0, held.length);
    // Not needed again: its memory goes as the parts are read (`bytes` holds what is read here).
    emptied(held);
    // One pass: each entry's start and OIB (an entry is HEAD bytes at least).
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const starts = new Float64Array(Math.floor(bytes.length / HEAD));
    const oibs = new Float64Array(starts.length);
    let count = 0;
    for (let at = 0; at < bytes.length; at += HEAD + view.getUint32(at + 28, true) + view.getUint32(at + 32, true)) {
      starts[count] = at;
      oibs[count++] = view.getFloat64(at, true);
    }
    // The repeated OIBs found by a table of those met (open addressing), not by a sort of them all:
    // a part of 78,000 OIBs at five million subjects took 7 ms to sort, 64 parts.
    const mask = 2 ** Math.ceil(Math.log2(2 * count + 2)) - 1;
    const met = new Float64Array(mask + 1).fill(-1);
    const repeated = new Set<number>();
    // The repeated OIBs' low bits, so that nearly every entry is passed over by a bit, not a Set's
    // look-up: every part holds some repeated OIBs at five million subjects (44 on average).
    const low = new Uint8Array(LOW_BITS / 8);
    for (let k = 0; k < count; k++) {
      const oib = oibs[k] as number;
      let slot = Math.imul(oib % 0x100000000 | 0, 0x9e3779b1) & mask;
      while (met[slot] !== -1 && met[slot] !== oib) slot = (slot + 1) & mask;
      if (met[slot] === -1) {
        met[slot] = oib;
        continue;
      }
      repeated.add(oib);
      low[oib % LOW_BITS >>> 3] = (low[oib % LOW_BITS >>> 3] as number) | (1 << oib % 8);
    }
    const holders: Holder[] = [];
    if (repeated.size === 0) return holders;
    for (let k = 0; k < count; k++) {
      const oib = oibs[k] as number;
      if (((low[oib % LOW_BITS >>> 3] as number) & (1 << oib % 8)) === 0 || !repeated.has(oib)) continue;
      const at = starts[k] as number;
      const length = bytes.readUInt32LE(at + 28);
      const nameLength = bytes.readUInt32LE(at + 32);
      const block = bytes.readUInt32LE(at + 36);
      holders.push({
        oib,
        id: bytes.readDoubleLE(at + 8),
        order: bytes.readUInt32LE(at + 16),
        position: bytes.readUInt32LE(at + 20),
        file: bytes.readUInt32LE(at + 24),
        code: bytes.toString("utf8", at + HEAD, at + HEAD + length),
        name: bytes.toString("utf8", at + HEAD + length, at + HEAD + length + nameLength),
        later: block === 0 ? undefined : { block, start: bytes.readUInt32LE(at + 40), end: bytes.readUInt32LE(at + 44) },
      });
    }
    return holders;
  }

  /**
   * Part `part`'s entries, its held ones appended to its file first, read back whole into one buffer
   * kept from part to part (valid until the next part is read back): the holders made from it copy
   * what they keep.
   */
  async #readBackAll(part: number): Promise<Buffer> {
    if ((this.#held[part] as Held).length > 0) await this.#spill(part);
    const bytes = await this.#readBack.readAsync(join((this.#scratch as ScratchDir).path, String(part)));
    if (bytes.length !== this.#spilled.get(part)) throw new Error(`${String(part)}: the OIB check's scratch file was cut short`);
    return bytes;
  }
}

/** Copies record `k`'s code from a cached block's code bytes into `into` at `at` (byte by byte: a code is a few bytes); answers its length. */
function copyCode(known: Pick<KnownKeys, "codeBytes" | "codeEnds">, k: number, into: Uint8Array, at: number): number {
  const [start, end] = [startOf(known.codeEnds, k), known.codeEnds[k] as number];
  for (let i = start; i < end; i++) into[at + i - start] = known.codeBytes[i] as number;
  return end - start;
}

/** Where record `k` of a block starts in its bytes. */
function startOf(ends: ArrayLike<number>, k: number): number {
  return k === 0 ? 0 : (ends[k - 1] ?? 0);
}

/** `bytes` as a Buffer, in place (made once a block: a Buffer made for each record cost more than finding its name). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/**
 * Where a record's name key is when it is rendered as render-page.ts writes it, from its start:
 * after `{"id":<id>,"jedinstvena_oznaka":"<code>",` (its id a safe integer, its code digits).
 */
function nameKeyAt(id: number, code: string): number {
  let digits = 1;
  for (let rest = id; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return '{"id":'.length + digits + ',"jedinstvena_oznaka":"'.length + code.length + '",'.length;
}

/**
 * The name in a record's rendered bytes [start, end) as its JSON writes it (escaped, without the
 * quotes): found by its key and the closing quote no backslash escapes, not parsed. The key is
 * looked for first `expected` bytes after the record's start (nameKeyAt), then searched for.
 */
function nameOf(bytes: Buffer, start: number, end: number, expected = -1): Uint8Array {
  const key = expected >= 0 && isNameKeyAt(bytes, start + expected) ? start + expected : bytes.indexOf(NAME_KEY, start);
  if (key < 0 || key >= end) return EMPTY;
  const from = key + NAME_KEY.length;
  let at = from;
  while (at < end && bytes[at] !== 0x22) at += bytes[at] === 0x5c ? 2 : 1;
  return bytes.subarray(from, at);
}
const EMPTY = new Uint8Array(0);
const NO_BYTES = Buffer.allocUnsafeSlow(0);

/** Whether NAME_KEY's bytes begin at `at`. */
function isNameKeyAt(bytes: Buffer, at: number): boolean {
  if (at + NAME_KEY.length > bytes.length) return false;
  for (let i = 0; i < NAME_KEY.length; i++) if (bytes[at + i] !== NAME_KEY[i]) return false;
  return true;
}

/** The part of an OIB: its value's place among 11-digit numbers, so each part holds a run of OIBs (spread evenly by random OIBs). */
function partOf(oib: number): number {
  return Math.min(PARTS - 1, Math.floor((oib / 1e11) * PARTS));
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
