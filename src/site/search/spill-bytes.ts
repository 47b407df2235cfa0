/**
 * Bytes the search stage puts aside while it gathers (varints and short texts), held in memory up
 * to a bound and appended to a scratch file past it: the stage's memory then stays the bound's,
 * whatever the list's length, and a small list never touches the disk.
 */
import { appendFileSync, readFileSync } from "node:fs";

/** Appended bytes: in memory until `limit`, then to `path` a buffer at a time. */
export class SpillBytes {
  #bytes: Uint8Array;
  #length = 0;
  #spilled = false;
  readonly #path: string;
  readonly #limit: number;

  constructor(path: string, limit: number) {
    this.#path = path;
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
    this.#bytes.set(bytes.subarray(from, to), this.#length);
    this.#length += to - from;
  }

  /**
   * Appends a text as its code units, after a header (size * 4 + flag * 2 + 1, odd): one byte each
   * when all are below 256 (flag 0), else UTF-16LE (flag 1), so that every text reads back as it was.
   */
  text(text: string): void {
    let narrow = true;
    for (let i = 0; narrow && i < text.length; i++) narrow = text.charCodeAt(i) < 0x100;
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

  /** Everything appended (what went to the file, then what is still in memory); the memory is let go. */
  take(): Uint8Array {
    const tail = this.#bytes.subarray(0, this.#length);
    this.#bytes = new Uint8Array(0);
    this.#length = 0;
    if (!this.#spilled) return tail;
    if (tail.length > 0) appendFileSync(this.#path, tail);
    this.#spilled = false;
    return readFileSync(this.#path);
  }

  #room(more: number): void {
    if (this.#length + more <= this.#limit || this.#length === 0) {
      const grown = new Uint8Array(Math.max(this.#length + more, Math.min(this.#limit, 2 * this.#bytes.length)));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
      return;
    }
    appendFileSync(this.#path, this.#bytes.subarray(0, this.#length));
    this.#spilled = true;
    this.#length = 0;
    if (this.#bytes.length < more) this.#bytes = new Uint8Array(more);
  }
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
