/**
 * The bytes of a source file: valid UTF-8 (a byte-order mark is fine) unless `--encoding` names
 * another encoding for CSV. Reading stays fast: each chunk is checked with `buffer.isUtf8`
 * (native, no string made) as it streams past; only when a check fails is the file scanned again
 * byte by byte to say where (line, column, the bytes in hex) and, when the bytes read as
 * Windows-1250 Croatian letters, how to fix it. A build with such an error writes nothing, so no
 * U+FFFD made by decoding can reach the site.
 */
import { createReadStream, type ReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { Transform } from "node:stream";
import type { Problem } from "../problems/problems.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import type { SourceFile } from "./source-file.ts";

/** Located bad bytes reported per file; the rest are counted in one more problem. */
const MAX_LOCATED = 100;
/** Letters a Croatian text holds that Windows-1250 writes as one byte each (no valid UTF-8 alone). */
const CROATIAN_LETTERS = /[čćđšžČĆĐŠŽ]/;
const LINE_FEED = 0x0a;

/** Checks a byte stream chunk by chunk; a multi-byte sequence split between chunks is carried over. */
export class Utf8Check {
  #carry: Buffer = Buffer.alloc(0);
  #valid = true;

  get valid(): boolean {
    return this.#valid;
  }

  /** Checks one more chunk of the stream. */
  push(chunk: Buffer): void {
    if (!this.#valid) return;
    const bytes = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    const cut = completeLength(bytes);
    this.#carry = Buffer.from(bytes.subarray(cut));
    if (!isUtf8(bytes.subarray(0, cut))) this.#valid = false;
  }

  /** The stream ended: a sequence still open is invalid. */
  end(): void {
    if (this.#carry.length > 0) this.#valid = false;
  }
}

/** How many leading bytes of `bytes` end on a sequence boundary (at most 3 bytes of an open sequence are left out). */
function completeLength(bytes: Buffer): number {
  const n = bytes.length;
  for (let j = n - 1; j >= 0 && j >= n - 3; j--) {
    const b = bytes[j] as number;
    if ((b & 0xc0) === 0x80) continue;
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return n - j < needed ? j : n;
  }
  return n;
}

/** A source's byte stream, watched for invalid UTF-8; `problems` reports where, once the stream has ended. */
export interface WatchedStream {
  readonly stream: ReadStream;
  /** Appends the located bad bytes of the file (none when it was valid UTF-8). */
  problems(): Promise<Problem[]>;
}

/** Opens `file` for reading, checking its bytes as UTF-8 on the way (unless it is read in another encoding). */
export function openSource(file: SourceFile, options: { highWaterMark?: number } = {}): WatchedStream {
  const stream = createReadStream(file.path, options);
  const check = new Utf8Check();
  const utf8 = isUtf8Label(file.encoding);
  if (utf8) stream.on("data", (chunk) => check.push(chunk as Buffer));
  return {
    stream,
    async problems() {
      if (!utf8) return [];
      // A stream destroyed early (a file that is not an array) is judged on what was read.
      if (stream.readableEnded) check.end();
      return check.valid ? [] : locateBadBytes(file);
    },
  };
}

/** A source's bytes a piece at a time, watched for invalid UTF-8 as openSource's are; `problems` reports where, once read. */
export interface WatchedPieces {
  /** The file's bytes in order, a piece (at most the size asked for) at a time: each lasts only until the next is asked for. */
  pieces(): AsyncGenerator<Buffer>;
  /** Appends the located bad bytes of the file (none when it was valid UTF-8). */
  problems(): Promise<Problem[]>;
}

/**
 * Reads `file` in pieces of `size` bytes into two buffers, in turn: the next piece is read into one
 * while the taker works on the other (as a stream reads ahead), and no piece is fresh memory. A
 * stream's fresh buffer a read (4 MB each) was the whole file in fresh memory for the kernel to hand
 * out, 1.6 GB at five million subjects. Checked as UTF-8 on the way as openSource checks.
 */
export function readSourcePieces(file: SourceFile, size: number): WatchedPieces {
  const check = new Utf8Check();
  const utf8 = isUtf8Label(file.encoding);
  let ended = false;
  return {
    async *pieces() {
      const handle = await open(file.path, "r");
      const buffers: Buffer[] = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
      let turn = 0;
      let position = 0;
      const readInto = (buffer: Buffer): Promise<number> => {
        const read = handle.read(buffer, 0, size, position).then(({ bytesRead }) => bytesRead);
        // Handled here too: a read failing while the taker works is thrown when next awaited, never "unhandled" meanwhile.
        read.catch(() => undefined);
        return read;
      };
      let next = readInto(buffers[0] as Buffer);
      try {
        for (;;) {
          const bytesRead = await next;
          if (bytesRead === 0) break;
          const piece = (buffers[turn] as Buffer).subarray(0, bytesRead);
          position += bytesRead;
          turn = 1 - turn;
          // Into the other buffer: the one the taker had before this piece, done with now it asks again.
          next = readInto(buffers[turn] as Buffer);
          if (utf8) check.push(piece);
          yield piece;
        }
        ended = true;
      } finally {
        // A taker that stopped early: the read under way finishes before the file closes.
        await next.catch(() => undefined);
        await handle.close();
      }
    },
    async problems() {
      if (!utf8) return [];
      // A read stopped early (a file that is not an array) is judged on what was read.
      if (ended) check.end();
      return check.valid ? [] : locateBadBytes(file);
    },
  };
}

/** Whether `label` (a WHATWG encoding label, or none) means UTF-8. */
export function isUtf8Label(label: string | undefined): boolean {
  return label === undefined || new TextDecoder(label).encoding === "utf-8";
}

/** Thrown by `decodeStream` when the bytes are not text in its encoding. */
export class EncodingError extends Error {
  readonly label: string;
  constructor(label: string) {
    super(`the bytes are not ${label} text`);
    this.name = "EncodingError";
    this.label = label;
  }
}

/**
 * A stream of text decoded from `label` (for CSV sources in another encoding than UTF-8). The
 * decoder is fatal: bytes the encoding has no character for fail the read rather than become U+FFFD.
 */
export function decodeStream(label: string): Transform {
  const decoder = new TextDecoder(label, { fatal: true });
  const decode = (chunk?: Buffer): string | EncodingError => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch (error) {
      if (error instanceof TypeError) return new EncodingError(label);
      throw error;
    }
  };
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _encoding, done) {
      const text = decode(chunk);
      if (text instanceof EncodingError) done(text);
      else done(null, text);
    },
    flush(done) {
      const text = decode();
      if (text instanceof EncodingError) done(text);
      else done(null, text);
    },
  });
}

/** Whether a WHATWG label names an encoding TextDecoder knows. */
export function isEncodingLabel(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** The bytes as a problem shows them: `E8 9A`. */
function hex(bytes: ArrayLike<number>): string {
  return Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}

/** The hint for bad bytes: a Windows-1250 reading when it gives Croatian letters, else what to do. */
function hintFor(file: SourceFile, word: Uint8Array, bad: Uint8Array): Message {
  const letters = new TextDecoder("windows-1250").decode(bad);
  if (CROATIAN_LETTERS.test(letters) && [...letters].every((c) => CROATIAN_LETTERS.test(c))) {
    const asWindows = new TextDecoder("windows-1250").decode(word);
    return msg(file.kind === "csv" ? "hint.windows-1250-csv" : "hint.windows-1250", { word: JSON.stringify(asWindows) });
  }
  return msg("hint.save-utf8");
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when the bytes there are not one. */
function sequenceAt(bytes: Buffer, i: number): number {
  const b = bytes[i] as number;
  if (b < 0x80) return 1;
  const needed = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (needed === 0 || i + needed > bytes.length) return 0;
  for (let k = 1; k < needed; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return 0;
  const code = bytes.subarray(i, i + needed);
  return isUtf8(code) ? needed : 0;
}

/**
 * Every invalid UTF-8 sequence in `file` (up to MAX_LOCATED, then a count), located by line and
 * column (1-based; a column counts characters, each bad byte as one).
 */
export async function locateBadBytes(file: SourceFile): Promise<Problem[]> {
  const problems: Problem[] = [];
  let more = 0;
  let line = 1;
  let column = 1;
  // The current line's bytes so far (bounded), for the word shown in the hint.
  let lineBytes: number[] = [];
  let rest: Buffer = Buffer.alloc(0);
  const visit = (bytes: Buffer, final: boolean): Buffer => {
    let i = 0;
    // Near a chunk's end a sequence may continue in the next chunk: stop 3 bytes short, unless final.
    const stop = final ? bytes.length : bytes.length - 3;
    while (i < stop) {
      const b = bytes[i] as number;
      if (b === LINE_FEED) {
        line++;
        column = 1;
        lineBytes = [];
        i++;
        continue;
      }
      const length = sequenceAt(bytes, i);
      if (length > 0) {
        if (lineBytes.length < 4096) for (let k = 0; k < length; k++) lineBytes.push(bytes[i + k] as number);
        column++;
        i += length;
        continue;
      }
      // A run of bad bytes is one problem: Windows-1250 text has one per letter, never runs of them.
      let end = i + 1;
      while (end < bytes.length && end - i < 4 && sequenceAt(bytes, end) === 0 && bytes[end] !== LINE_FEED) end++;
      const bad = bytes.subarray(i, end);
      if (problems.length < MAX_LOCATED) {
        const word = wordAround(lineBytes, bytes, i, end);
        problems.push({
          severity: "error",
          file: file.name,
          line,
          column,
          expected: msg("expected.utf8"),
          value: msg("value.bytes-hex", { count: bad.length, hex: hex(bad) }),
          hint: hintFor(file, word, bad),
        });
      } else {
        more++;
      }
      for (const byte of bad) lineBytes.push(byte);
      column += bad.length;
      i = end;
    }
    return Buffer.from(bytes.subarray(i));
  };
  for await (const chunk of createReadStream(file.path) as AsyncIterable<Buffer>) {
    rest = visit(rest.length === 0 ? chunk : Buffer.concat([rest, chunk]), false);
  }
  visit(rest, true);
  if (more > 0)
    problems.push({
      severity: "error",
      file: file.name,
      expected: msg("expected.utf8"),
      value: msg("value.more-bad-bytes", { count: more }),
      hint: msg("hint.first-located"),
    });
  return problems;
}

/** The word holding the bad bytes at [start, end) of `bytes`: back to a space or delimiter on its line, on to the next. */
function wordAround(lineBytes: readonly number[], bytes: Buffer, start: number, end: number): Uint8Array {
  const isBreak = (b: number): boolean =>
    b === 0x20 || b === 0x3b || b === 0x2c || b === 0x22 || b === 0x09 || b === 0x0d || b === LINE_FEED;
  let from = lineBytes.length;
  while (from > 0 && !isBreak(lineBytes[from - 1] as number) && lineBytes.length - from < 40) from--;
  let to = end;
  while (to < bytes.length && !isBreak(bytes[to] as number) && to - end < 40) to++;
  return Uint8Array.from([...lineBytes.slice(from), ...bytes.subarray(start, to)]);
}
