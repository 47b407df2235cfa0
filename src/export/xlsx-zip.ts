/**
 * The zip a workbook is (ECMA-376 Part 2's package, PKWARE's APPNOTE.TXT), written front to back
 * into a file: small parts stored whole, the sheet in segments deflated apart (one a records chunk,
 * so an edit deflates its chunk alone and copies the rest), its CRC-32 combined from theirs and its
 * sizes summed, written after it in a data descriptor, so nothing of it is held in memory. Zip64 fields only where a size or an offset passes 4 GiB (the sheet of ten
 * million rows may), as Go's archive/zip writes them. Every entry is stamped with one date, so the
 * same parts give the same bytes.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { promisify } from "node:util";
import * as zlib from "node:zlib";
import { crc32Combine } from "./crc32-combine.ts";

const deflateRaw = promisify(zlib.deflateRaw);

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
const MAX32 = 0xffffffff;
/** Bit 3: sizes and CRC in a data descriptor; bit 11: names are UTF-8. */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const STORED = 0;
const DEFLATE = 8;
/** 2.0 (deflate) or 4.5 (zip64), made by "MS-DOS" so no reader applies Unix modes. */
const VERSION = 20;
const VERSION_ZIP64 = 45;

/** CRC-32 (ISO 3309), by Node's zlib where it has one (20.15, 22.2), else by a table. */
const crc32: (data: Uint8Array, value: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === "function" ? (data, value) => zlib.crc32(data, value) : tableCrc32;

let table: Uint32Array | undefined;

/** CRC-32 by a table, for Node before 20.15 (exported for its test against zlib's). */
export function tableCrc32(data: Uint8Array, value: number): number {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let crc = ~value >>> 0;
  for (const byte of data) crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** `date` as MS-DOS stores it (two-second steps), from its UTC fields: the same in every time zone. */
function dosTime(date: Date): { readonly time: number; readonly date: number } {
  const year = Math.min(Math.max(date.getUTCFullYear(), 1980), 2107);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

interface Entry {
  readonly name: Buffer;
  readonly flags: number;
  /** 0 stored, 8 deflated. */
  readonly method: number;
  readonly offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** Bytes deflated apart: a raw-deflate stream ending in a sync flush (the last: in a final block), with its input's CRC-32 and length. */
export interface DeflatedSegment {
  readonly bytes: Uint8Array;
  readonly crc: number;
  readonly size: number;
}

/** The sync flush's empty stored block, the end of every segment but the last (byte-aligned). */
export const SYNC_FLUSH_MARK = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/**
 * zlib's level for the sheet: 5 keeps all but 0.7 % of the default's (6) compression at 70 % of its
 * CPU, where 1 to 4 save more CPU for a file 10 to 18 % larger (measured on the sheet's XML of
 * 100,000 rows: docs/open-data.md). A full build pays the deflate once (an edit deflates one chunk);
 * every download of the file pays its size.
 */
export const DEFLATE_LEVEL = 5;

/** `text` (or its UTF-8 bytes) deflated on its own: a segment to end a stream when `last`, else one more may follow it. */
export async function deflateSegment(text: string | Uint8Array, last: boolean): Promise<DeflatedSegment> {
  const input = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  // zlib's thread pool, so the main thread renders the next rows meanwhile.
  const bytes = await deflateRaw(input, {
    level: DEFLATE_LEVEL,
    finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
  });
  return { bytes, crc: crc32(input, 0), size: input.length };
}

/** A sheet being written into the zip, in deflated segments. */
export interface ZipEntryStream {
  /** Adds a segment; resolves when the zip can take more. */
  write(segment: DeflatedSegment): Promise<void>;
  end(): Promise<void>;
}

/** A zip written into `path`, one entry after another. */
export class ZipWriter {
  readonly #out: WriteStream;
  readonly #stamp: { readonly time: number; readonly date: number };
  readonly #entries: Entry[] = [];
  #offset = 0;
  #failure: Error | undefined;
  /** Every byte written, hashed in the order written (the file's order): the file is not read back to be hashed. */
  readonly #hash = createHash("sha256");

  /** Sizes and offsets from this one on are zip64's (0xFFFFFFFF itself marks one); a test lowers it. */
  readonly #zip64From: number;

  constructor(path: string, date: Date, zip64From = MAX32) {
    this.#zip64From = zip64From;
    // A high-water mark of one byte: every write waits for "drain", so its promise resolves once the bytes are written
    // (no longer the stream's), and the caller may fill their buffer again (write-downloads.ts gathers in two).
    this.#out = createWriteStream(path, { highWaterMark: 1 });
    this.#out.on("error", (error) => (this.#failure ??= error));
    this.#stamp = dosTime(date);
  }

  /** Writes bytes; resolves once the stream has written them. */
  #write(bytes: Uint8Array): Promise<void> | void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#offset += bytes.length;
    this.#hash.update(bytes);
    if (!this.#out.write(bytes)) return this.#drained();
  }

  async #drained(): Promise<void> {
    await once(this.#out, "drain");
  }

  #localHeader(entry: Entry): Buffer {
    const head = Buffer.alloc(30);
    head.writeUInt32LE(LOCAL_HEADER, 0);
    head.writeUInt16LE(VERSION, 4);
    head.writeUInt16LE(entry.flags, 6);
    head.writeUInt16LE(entry.method, 8);
    head.writeUInt16LE(this.#stamp.time, 10);
    head.writeUInt16LE(this.#stamp.date, 12);
    // Known for a whole part; zero for the sheet, whose descriptor follows its data.
    head.writeUInt32LE(entry.crc, 14);
    head.writeUInt32LE(entry.compressed, 18);
    head.writeUInt32LE(entry.size, 22);
    head.writeUInt16LE(entry.name.length, 26);
    return Buffer.concat([head, entry.name]);
  }

  /**
   * A small part, stored as it is: a few hundred bytes each, and stored, the file's size does not
   * vary with the digits of the date in them (deflated, it moved by a byte from one date to another).
   */
  async add(name: string, text: string): Promise<void> {
    const bytes = Buffer.from(text, "utf8");
    const entry: Entry = {
      name: Buffer.from(name, "utf8"),
      flags: FLAG_UTF8,
      method: STORED,
      offset: this.#offset,
      crc: crc32(bytes, 0),
      compressed: bytes.length,
      size: bytes.length,
    };
    this.#entries.push(entry);
    await this.#write(this.#localHeader(entry));
    await this.#write(bytes);
  }

  /** Where the next byte goes in the file. */
  get offset(): number {
    return this.#offset;
  }

  /**
   * An entry deflated ahead, in segments: each a raw-deflate stream of its own ending in a sync
   * flush (byte-aligned, not final), the last one final, so that their bytes end to end are one
   * deflate stream (as pigz joins its pieces). The entry's CRC-32 is combined from the segments'
   * and its sizes summed, so a segment copied from an earlier file is never inflated or read again.
   * Another entry may begin once it has ended.
   */
  open(name: string): ZipEntryStream {
    const entry: Entry = {
      name: Buffer.from(name, "utf8"),
      flags: FLAG_UTF8 | FLAG_DESCRIPTOR,
      method: DEFLATE,
      offset: this.#offset,
      crc: 0,
      compressed: 0,
      size: 0,
    };
    this.#entries.push(entry);
    const header = this.#write(this.#localHeader(entry));
    return {
      write: async (segment) => {
        await header;
        entry.crc = crc32Combine(entry.crc, segment.crc, segment.size);
        entry.size += segment.size;
        entry.compressed += segment.bytes.length;
        await this.#write(segment.bytes);
      },
      end: async () => {
        await header;
        const zip64 = this.#big(entry.compressed) || this.#big(entry.size);
        const descriptor = Buffer.alloc(zip64 ? 24 : 16);
        descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
        descriptor.writeUInt32LE(entry.crc, 4);
        if (zip64) {
          descriptor.writeBigUInt64LE(BigInt(entry.compressed), 8);
          descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
        } else {
          descriptor.writeUInt32LE(entry.compressed, 8);
          descriptor.writeUInt32LE(entry.size, 12);
        }
        await this.#write(descriptor);
      },
    };
  }

  /** The central directory and its end; the file closed: its SHA-256 (hex) and size. */
  async end(): Promise<{ sha256: string; bytes: number }> {
    const start = this.#offset;
    for (const entry of this.#entries) await this.#write(this.#centralHeader(entry));
    const size = this.#offset - start;
    const zip64 = this.#big(start) || this.#big(size);
    if (zip64) {
      const end64 = Buffer.alloc(56);
      end64.writeUInt32LE(ZIP64_END, 0);
      end64.writeBigUInt64LE(44n, 4);
      end64.writeUInt16LE(VERSION_ZIP64, 12);
      end64.writeUInt16LE(VERSION_ZIP64, 14);
      end64.writeBigUInt64LE(BigInt(this.#entries.length), 24);
      end64.writeBigUInt64LE(BigInt(this.#entries.length), 32);
      end64.writeBigUInt64LE(BigInt(size), 40);
      end64.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(ZIP64_LOCATOR, 0);
      locator.writeBigUInt64LE(BigInt(this.#offset), 8);
      locator.writeUInt32LE(1, 16);
      await this.#write(end64);
      await this.#write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(this.#entries.length, 8);
    end.writeUInt16LE(this.#entries.length, 10);
    end.writeUInt32LE(this.#small(size), 12);
    end.writeUInt32LE(this.#small(start), 16);
    await this.#write(end);
    const closed = once(this.#out, "close");
    this.#out.end();
    await closed;
    if (this.#failure !== undefined) throw this.#failure;
    return { sha256: this.#hash.digest("hex"), bytes: this.#offset };
  }

  /** Gives the file up: closed, its writes then failing unheard. */
  abort(): void {
    this.#failure ??= new Error("the workbook was abandoned");
    this.#out.destroy();
  }

  #big(n: number): boolean {
    return n >= this.#zip64From;
  }

  /** A 32-bit field: the value, or 0xFFFFFFFF when it is in the zip64 record. */
  #small(n: number): number {
    return this.#big(n) ? MAX32 : n;
  }

  #centralHeader(entry: Entry): Buffer {
    // Each field past 4 GiB moves to the zip64 extra field, in this order (APPNOTE 4.5.3).
    const big = [entry.size, entry.compressed, entry.offset].filter((n) => this.#big(n));
    const extra = Buffer.alloc(big.length === 0 ? 0 : 4 + 8 * big.length);
    if (big.length > 0) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8 * big.length, 2);
      big.forEach((n, i) => extra.writeBigUInt64LE(BigInt(n), 4 + 8 * i));
    }
    const head = Buffer.alloc(46);
    head.writeUInt32LE(CENTRAL_HEADER, 0);
    head.writeUInt16LE(big.length > 0 ? VERSION_ZIP64 : VERSION, 4);
    head.writeUInt16LE(big.length > 0 ? VERSION_ZIP64 : VERSION, 6);
    head.writeUInt16LE(entry.flags, 8);
    head.writeUInt16LE(entry.method, 10);
    head.writeUInt16LE(this.#stamp.time, 12);
    head.writeUInt16LE(this.#stamp.date, 14);
    head.writeUInt32LE(entry.crc, 16);
    head.writeUInt32LE(this.#small(entry.compressed), 20);
    head.writeUInt32LE(this.#small(entry.size), 24);
    head.writeUInt16LE(entry.name.length, 28);
    head.writeUInt16LE(extra.length, 30);
    head.writeUInt32LE(this.#small(entry.offset), 42);
    return Buffer.concat([head, entry.name, extra]);
  }
}
