/**
 * Bytes the search stage puts aside while it gathers (varints and short texts), held in memory up
 * to a bound and appended to a scratch file past it: the stage's memory then stays the bound's,
 * whatever the list's length, and a small list never touches the disk.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { readInto } from "../../common/read-into.ts";
import type { Reused } from "../../common/reused-arrays.ts";

/**
 * One scratch file that many SpillBytes append their blocks to, each keeping where its own lie:
 * opened once, on the first block, and written at its end. A file a SpillBytes, appended by path
 * (open, write, close), cost an open and a close a block: the blocks shrink as the ranges grow
 * with the list (RANGES_BYTES shared by 40 ranges at five million subjects), so at 5M some 21,000
 * opens where 1M made 800.
 */
export class SpillFile {
  readonly #path: string;
  #fd = -1;
  #length = 0;
  #closed = false;

  /** A file at `path`, made when the first block comes. */
  constructor(path: string) {
    this.#path = path;
  }

  /** Appends `bytes`; answers where they begin. */
  append(bytes: Uint8Array): number {
    if (this.#closed) throw new Error(`${this.#path} is closed: no block can be appended`);
    if (this.#fd < 0) this.#fd = openSync(this.#path, "w+");
    const at = this.#length;
    for (let done = 0; done < bytes.length; ) done += writeSync(this.#fd, bytes, done, bytes.length - done, at + done);
    this.#length += bytes.length;
    return at;
  }

  /** Reads the `length` bytes at `at` into `into` from `offset`. */
  read(into: Uint8Array, offset: number, length: number, at: number): void {
    if (readInto(this.#fd, into, offset, length, at) < length) throw new Error(`${this.#path} ends before byte ${at + length}`);
  }

  /** Closes the file once every SpillBytes of it is taken (its bytes stay in the scratch directory, removed with it). */
  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
    this.#closed = true;
  }
}

/** Appended bytes: in memory until `limit`, then to `file` a buffer at a time. */
export class SpillBytes {
  #bytes: Uint8Array;
  #length = 0;
  readonly #file: SpillFile;
  readonly #limit: number;
  /** Its blocks in the file: where each begins and its length. */
  #blocks: number[] = [];
  #spilledBytes = 0;

  constructor(file: SpillFile, limit: number) {
    this.#file = file;
    this.#limit = limit;
    this.#bytes = new Uint8Array(Math.min(limit, 256));
  }

  /** Appends a varint (7 bits a byte, low first) of a number below 2^53. */
  varint(value: number): void {
    if (this.#length + 8 > this.#bytes.length) this.#room(8);
    const bytes = this.#bytes;
    let at = this.#length;
    // Nearly every value is a small key's number or a gap: one or two bytes, by bits.
    if (value < 0x80) {
      bytes[at] = value;
      this.#length = at + 1;
      return;
    }
    if (value < 0x4000) {
      bytes[at] = (value & 0x7f) | 0x80;
      bytes[at + 1] = value >>> 7;
      this.#length = at + 2;
      return;
    }
    let v = value;
    while (v >= 0x80) {
      bytes[at++] = v % 0x80 | 0x80;
      v = Math.floor(v / 0x80);
    }
    bytes[at++] = v;
    this.#length = at;
  }

  /** Appends `bytes[from, to)`. */
  bytes(bytes: Uint8Array, from: number, to: number): void {
    if (this.#length + to - from > this.#bytes.length) this.#room(to - from);
    const into = this.#bytes;
    let at = this.#length;
    // Byte by byte, not set(subarray): a suffix entry is a few dozen bytes, and a subarray an
    // object each (200 MB of them for the million and a half entries of a million subjects).
    for (let i = from; i < to; i++) into[at++] = bytes[i] as number;
    this.#length = at;
  }

  /**
   * Appends a text as its code units, after a header (size * 4 + flag * 2 + 1, odd): one byte each
   * when all are below 256 (flag 0), else UTF-16LE (flag 1), so that every text reads back as it was.
   * `narrow`: narrowText's answer for it, when the caller keeps it (a token's, written at each of its subjects).
   */
  text(text: string, narrow = narrowText(text)): void {
    const size = narrow ? text.length : 2 * text.length;
    this.varint(size * 4 + (narrow ? 1 : 3));
    if (this.#length + size > this.#bytes.length) this.#room(size);
    if (narrow) {
      const bytes = this.#bytes;
      let at = this.#length;
      for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    } else Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset).write(text, this.#length, "utf16le");
    this.#length += size;
  }

  /** Appends a text of one-byte code units `bytes[from, to)` as text() would. */
  narrowText(bytes: Uint8Array, from: number, to: number): void {
    this.varint((to - from) * 4 + 1);
    this.bytes(bytes, from, to);
  }

  /**
   * Everything appended (what went to the file, then what is still in memory); the memory is let
   * go. Bytes that went to the file are read back into `room`'s array when given (good until it is
   * asked for again), else into a new one.
   */
  take(room?: Reused<Uint8Array>): Uint8Array {
    const tail = this.#bytes.subarray(0, this.#length);
    this.#bytes = new Uint8Array(0);
    this.#length = 0;
    if (this.#blocks.length === 0) return tail;
    const length = this.#spilledBytes + tail.length;
    const all = room === undefined ? new Uint8Array(length) : room.view(length);
    let at = 0;
    for (let b = 0; b < this.#blocks.length; b += 2) {
      const length = this.#blocks[b + 1] as number;
      this.#file.read(all, at, length, this.#blocks[b] as number);
      at += length;
    }
    all.set(tail, at);
    this.#blocks = [];
    this.#spilledBytes = 0;
    return all;
  }

  /**
   * Everything appended, to be read in order a part at a time (SpilledBytes.read), where take()
   * reads it whole into one array: the memory is let go now, as by take().
   */
  reader(): SpilledBytes {
    const reader = new SpilledBytes(this.#file, this.#blocks, this.#bytes.subarray(0, this.#length));
    this.#bytes = new Uint8Array(0);
    this.#length = 0;
    this.#blocks = [];
    this.#spilledBytes = 0;
    return reader;
  }

  /** Its bytes so far, in the file and in memory. */
  get size(): number {
    return this.#spilledBytes + this.#length;
  }

  /** Whether any of its bytes went to the file. */
  get spilled(): boolean {
    return this.#blocks.length > 0;
  }

  #room(more: number): void {
    if (this.#length + more <= this.#limit || this.#length === 0) {
      const grown = new Uint8Array(Math.max(this.#length + more, Math.min(this.#limit, 2 * this.#bytes.length)));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
      return;
    }
    this.#blocks.push(this.#file.append(this.#bytes.subarray(0, this.#length)), this.#length);
    this.#spilledBytes += this.#length;
    this.#length = 0;
    if (this.#bytes.length < more) this.#bytes = new Uint8Array(more);
  }
}

/** Bytes read in order a part at a time: read() copies the next of them, and answers 0 once all are read. */
export interface ByteSource {
  /** Copies up to `max` of the next bytes into `into` from `offset`; answers how many (0: none are left). */
  read(into: Uint8Array, offset: number, max: number): number;
}

/** What a SpillBytes held, as a ByteSource: its blocks in the scratch file, then what was still in memory. */
export class SpilledBytes implements ByteSource {
  readonly #file: SpillFile;
  readonly #blocks: readonly number[];
  #tail: Uint8Array;
  /** The block read next (its index in #blocks, by twos), and how much of it is read. */
  #block = 0;
  #within = 0;

  constructor(file: SpillFile, blocks: readonly number[], tail: Uint8Array) {
    this.#file = file;
    this.#blocks = blocks;
    this.#tail = tail;
  }

  read(into: Uint8Array, offset: number, max: number): number {
    if (this.#block < this.#blocks.length) {
      const length = this.#blocks[this.#block + 1] as number;
      const take = Math.min(max, length - this.#within);
      this.#file.read(into, offset, take, (this.#blocks[this.#block] as number) + this.#within);
      this.#within += take;
      if (this.#within === length) {
        this.#block += 2;
        this.#within = 0;
      }
      return take;
    }
    const take = Math.min(max, this.#tail.length);
    into.set(this.#tail.subarray(0, take), offset);
    this.#tail = this.#tail.subarray(take);
    return take;
  }
}

/** Bytes in memory as a ByteSource. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  let at = 0;
  return {
    read(into: Uint8Array, offset: number, max: number): number {
      const take = Math.min(max, bytes.length - at);
      into.set(bytes.subarray(at, at + take), offset);
      at += take;
      return take;
    },
  };
}

/** Whether every code unit of a text is below 256 (SpillBytes.text writes it a byte a unit). */
export function narrowText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x100) return false;
  return true;
}

/** Where the last readVarint ended. */
export let varintEnd = 0;

/** The varint SpillBytes.varint wrote at `at` (a text's header, a key's item, a place's gap); varintEnd is then past it. */
export function readVarint(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let shift = 1; ; shift *= 0x80) {
    const b = bytes[at++] as number;
    value += (b & 0x7f) * shift;
    if (b < 0x80) break;
  }
  varintEnd = at;
  return value;
}

/** The size in bytes of a text whose header (SpillBytes.text) is `header`. */
export function textSize(header: number): number {
  return Math.floor(header / 4);
}

/** Reads a text SpillBytes.text wrote at `at` in `buffer`, after its header `header`. */
export function textAt(buffer: Buffer, at: number, header: number): string {
  const size = Math.floor(header / 4);
  return header % 4 === 1 ? buffer.toString("latin1", at, at + size) : buffer.toString("utf16le", at, at + size);
}

/** A buffer over `bytes` (no copy). */
export function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
