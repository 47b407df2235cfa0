/**
 * A JSON file holding one array of subjects, read as a stream: a small scanner splits the
 * top-level array into element texts (tracking strings, escapes and nesting depth), gathered in
 * blocks of BLOCK_RECORDS that are hashed (so a build cache can skip the blocks it knows) and
 * parsed in bulk. A 280 MB file is then never one string, and a broken element is reported by its
 * index while the rest are still read.
 *
 * The scanner works on bytes, not decoded text: the structural characters are ASCII, which never
 * occurs inside a multi-byte UTF-8 sequence, and decoding each element on its own keeps records
 * without diacritics as one-byte strings (decoding whole chunks made every chunk two-byte and
 * cost as much as the parsing). Lines are counted outside strings only (a raw line break inside
 * a string is invalid JSON anyway), for the hints of syntax errors.
 *
 * Most bytes lie inside elements (in pretty-printed subjects, two in three inside strings, 13
 * bytes long on average): those go through scanInside, a small function V8 optimizes at once.
 * Skipping a string with a native search (indexOf, memchr) lost to the byte loop at such lengths.
 */
import type { ProblemSink } from "../problems/problems.ts";
import { showValue } from "../problems/problem-parts.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import { contentHash, contentHasher } from "../../common/content-hash.ts";
import { readSourcePieces } from "./decode-source.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "../read-options.ts";
import { BLOCK_RECORDS, type BlockSpan, type BlockText, type RecordSink } from "./record-sink.ts";
import { locate, type SourceFile } from "./source-file.ts";

/** Before the hash of a block's bytes in the file, where a block's hash is not that of its text (see ArraySplitter.#flush). */
const RAW_MARK = "r";

/** Bytes read at once: a block's bytes (~330 KB) lie whole in one read mostly, as a known block is skipped only then. */
const CHUNK_BYTES = 4 << 20;
/** The least an element may take before it is too long to keep (see ArraySplitter's constructor). */
const MIN_ELEMENT_BYTES = 16 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
/** What a byte does inside an element, outside its strings (ArraySplitter.push): IN_ELEMENT[byte]. */
const PLAIN = 0;
const STRING_START = 1;
const LINE_BREAK = 2;
const NESTING_OPEN = 3;
const NESTING_CLOSE = 4;
/** A colon: a key of the record when at its top level (counted: JSON.parse keeps one of a key named twice). */
const KEY_COLON = 5;
const IN_ELEMENT = new Uint8Array(256);
IN_ELEMENT[QUOTE] = STRING_START;
IN_ELEMENT[LINE_FEED] = LINE_BREAK;
IN_ELEMENT[OPEN_BRACE] = NESTING_OPEN;
IN_ELEMENT[OPEN_BRACKET] = NESTING_OPEN;
IN_ELEMENT[CLOSE_BRACE] = NESTING_CLOSE;
IN_ELEMENT[CLOSE_BRACKET] = NESTING_CLOSE;
IN_ELEMENT[COLON] = KEY_COLON;
/** The UTF-8 byte-order mark is EF BB BF; editors on Windows may start a file with it. */
const BOM_BYTES = [0xef, 0xbb, 0xbf];

/** The scanner's state inside an element, handed to scanInside and back (ArraySplitter.push holds it in locals). */
interface Inside {
  /** Nesting depth within the element: 0 in a string that is the element itself. */
  depth: number;
  inString: boolean;
  line: number;
  /** Keys counted at the element's top level. */
  keys: number;
}

/**
 * Scans `chunk` from `i`, inside an element (in a string, or past the element's opening brace or
 * bracket), up to just past the byte that ends it (that brace or bracket closed, or the quote that
 * closes a string element) or to the chunk's end; answers where it stopped, one past `n` when the
 * chunk ends with a backslash in a string (the byte it escapes is the next chunk's first). Inside
 * an element only strings, nesting, line breaks and a record's keys matter (whitespace, a comma, a
 * number, a literal do nothing there), found with one look-up a byte; most bytes are a string's,
 * skipped by the tightest loop, up to its closing quote. A function of its own, small, rather than
 * loops inside ArraySplitter.push: V8 optimizes it within the first read, where the same loops
 * inside that long method ran longer in slower code (push, once optimized, takes it inlined: the
 * gain is in those first reads). The scanner alone over 1M subjects, once in a fresh process as a
 * build runs it: 1.00 / 1.08 s of CPU against 1.31 / 1.38 s (medians of two series of 6 pairs,
 * every pair lower; not quiet).
 */
function scanInside(chunk: Buffer, i: number, n: number, state: Inside): number {
  let depth = state.depth;
  let inString = state.inString;
  while (i < n) {
    if (inString) {
      // (`as number`: i < n here, and `?? 0` on every byte measurably slowed this loop.)
      let b = chunk[i] as number;
      while (b !== QUOTE) {
        i += b === BACKSLASH ? 2 : 1;
        if (i >= n) break;
        b = chunk[i] as number;
      }
      if (i >= n) break;
      inString = false;
      i++;
      if (depth === 0) break;
      continue;
    }
    while (i < n) {
      const kind = IN_ELEMENT[chunk[i++] as number] as number;
      if (kind === PLAIN) continue;
      if (kind === STRING_START) {
        inString = true;
        break;
      }
      if (kind === LINE_BREAK) state.line++;
      else if (kind === NESTING_OPEN) depth++;
      else if (kind === NESTING_CLOSE) {
        if (--depth === 0) break;
      } else if (depth === 1) state.keys++;
    }
    if (depth === 0) break;
  }
  state.depth = depth;
  state.inString = inString;
  return i;
}

/**
 * An element too large to be a subject, read on without keeping it: the length of each top-level
 * string value by its key, so the problem names the field that is too long.
 */
class LongElement {
  readonly #maxString: number;
  #bytes = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #stringBytes = 0;
  /** The start of the current top-level key, up to 200 bytes of it. */
  #key: number[] = [];
  #lastKey = "";
  /** After a top-level ':', before its value ends. */
  #inValue = false;
  readonly long: { key: string; bytes: number }[] = [];

  constructor(maxString: number) {
    this.#maxString = maxString;
  }

  get bytes(): number {
    return this.#bytes;
  }

  push(bytes: Uint8Array, from: number, to: number): void {
    this.#bytes += to - from;
    for (let i = from; i < to; i++) {
      const c = bytes[i] as number;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (c === BACKSLASH) this.#escaped = true;
        else if (c === QUOTE) {
          this.#inString = false;
          if (this.#depth === 1 && !this.#inValue) this.#lastKey = Buffer.from(this.#key).toString("utf8");
          else if (this.#depth === 1 && this.#stringBytes > this.#maxString)
            this.long.push({ key: this.#lastKey, bytes: this.#stringBytes });
          continue;
        }
        this.#stringBytes++;
        if (this.#depth === 1 && !this.#inValue && this.#key.length < 200) this.#key.push(c);
        continue;
      }
      if (c === QUOTE) {
        this.#inString = true;
        this.#stringBytes = 0;
        this.#key = [];
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.#depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) this.#depth--;
      else if (this.#depth === 1 && c === COLON) this.#inValue = true;
      else if (this.#depth === 1 && c === COMMA) this.#inValue = false;
    }
  }
}

type Hasher = ReturnType<typeof contentHasher>;
const NO_SPANS: readonly BlockSpan[] = [];

/** What the splitter reports: a block of element texts, or a problem with the array itself. */
interface SplitterEvents {
  /** Up to BLOCK_RECORDS consecutive elements, as one text (see `BlockText`), and the text's hash. */
  block(block: BlockText, hash: string): void;
  /** Where the last build found blocks that start at element `first` (see BlockSpan). */
  spansAt(first: number): readonly BlockSpan[];
  /** A block not split again, its bytes those of `span`: whether the receiver took it (else it is split). */
  known(span: BlockSpan): boolean;
  /** Where a block split (or skipped) lay, for the next build. */
  span(span: BlockSpan): void;
  /** An element longer than the bound, not kept: its size, and its string values that are too long. */
  tooLong(index: number, bytes: number, long: readonly { key: string; bytes: number }[]): void;
  problem(expected: Message, got: string | Message | undefined, hint?: Message, index?: number): void;
}

/**
 * The scanner, fed chunk by chunk. A class with its hot state copied into locals for the loop:
 * the same loop written inside the async reader, over variables its closures capture, ran
 * several times slower in V8. The bytes inside an element are scanInside's (see there why).
 */
class ArraySplitter {
  readonly #events: SplitterEvents;
  readonly #maxElementBytes: number;
  readonly #maxString: number;
  /** The element being read when it has outgrown #maxElementBytes (its bytes are no longer kept). */
  #long: LongElement | undefined;
  #phase: "before" | "inside" | "after" = "before";
  #depth = 0;
  #inString = false;
  #line = 1;
  /** Handed to scanInside (its fields are the locals of push around the call). */
  readonly #inside: Inside = { depth: 0, inString: false, line: 1, keys: 0 };
  #fileOffset = 0;
  /** Bytes of the next chunk already consumed: the character escaped by a `\` ending a chunk. */
  #carry = 0;
  #inElement = false;
  /** Where the element being collected starts in the current chunk (0 when begun in an earlier one). */
  #start = 0;
  #index = 0;
  /** Whether the last thing seen at the top level was a comma, so `[1,]` and `[,1]` are caught. */
  #commaPending = false;

  /**
   * The block being collected: elements are copied into it as they end (or as a chunk ends inside
   * one), so a block is one text whatever the read chunks were, and its hash does not depend on them.
   */
  #block = Buffer.allocUnsafe(1 << 20);
  #blockLength = 0;
  #blockFirst = 0;
  #starts: number[] = [];
  #lines: number[] = [];
  #keys: number[] = [];
  /** Keys counted so far at the top level of the element being collected. */
  #keyCount = 0;
  /**
   * The bytes of the block being split, hashed as they pass, from just after the comma that closed
   * the block before up to the comma that closes it (see BlockSpan); undefined when it began
   * otherwise (the first block, or after a problem), as such a block's place is not recorded.
   */
  #span: { readonly first: number; readonly fileStart: number; from: number; readonly line: number; readonly hasher: Hasher } | undefined;
  /**
   * The first element and the hash of the block the last element closed (BLOCK_RECORDS of them),
   * and the hash of its bytes in the file when it has a span, until the comma after it is seen.
   */
  #closed: { readonly first: number; readonly hash: string; readonly raw: string | undefined } | undefined;

  constructor(events: SplitterEvents, maxFieldLength: number) {
    this.#events = events;
    // A record of ten fields at the bound, each character written as a 6-byte escape, fits with room to spare.
    this.#maxElementBytes = Math.max(MIN_ELEMENT_BYTES, 10 * 6 * maxFieldLength + (1 << 20));
    // Written bytes, not characters: a value longer than this cannot be within the bound.
    this.#maxString = 6 * maxFieldLength;
  }

  /** Keeps the element's bytes [from, to) of `chunk`, unless the element has outgrown the bound. */
  #collect(chunk: Buffer, from: number, to: number): void {
    if (this.#long !== undefined) {
      this.#long.push(chunk, from, to);
      return;
    }
    const start = this.#starts[this.#starts.length - 1] ?? 0;
    if (this.#blockLength - start + (to - from) <= this.#maxElementBytes) {
      this.#append(chunk, from, to);
      return;
    }
    // Too long to be a subject: read on, measuring it, without keeping it. The elements before it
    // go out as a block of their own, so every block stays a run of consecutive elements.
    this.#long = new LongElement(this.#maxString);
    this.#long.push(this.#block, start, this.#blockLength);
    this.#long.push(chunk, from, to);
    this.#span = undefined;
    this.#starts.pop();
    this.#lines.pop();
    this.#blockLength = Math.max(0, start - 1);
    this.#flush();
  }

  #append(chunk: Buffer, from: number, to: number): void {
    this.#room(to - from);
    this.#blockLength += chunk.copy(this.#block, this.#blockLength, from, to);
  }

  /** Grows the block, if need be, to take `bytes` more. */
  #room(bytes: number): void {
    const needed = this.#blockLength + bytes;
    if (needed > this.#block.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#block.length * 2));
      this.#block.copy(grown, 0, 0, this.#blockLength);
      this.#block = grown;
    }
  }

  #beginElement(at: number, line: number): void {
    if (this.#starts.length === 0) {
      this.#blockFirst = this.#index;
      this.#blockLength = 0;
    } else {
      // The comma between two elements, as a byte: a copy call an element cost more than the byte.
      this.#room(1);
      this.#block[this.#blockLength++] = COMMA;
    }
    this.#starts.push(this.#blockLength);
    this.#lines.push(line);
    this.#keyCount = 0;
    this.#start = at;
  }

  #finishElement(chunk: Buffer, end: number, keys: number): void {
    this.#collect(chunk, this.#start, end);
    if (this.#long !== undefined) {
      this.#events.tooLong(this.#index++, this.#long.bytes, this.#long.long);
      this.#long = undefined;
      return;
    }
    this.#keys.push(keys);
    this.#index++;
    if (this.#starts.length !== BLOCK_RECORDS) return;
    // The block's bytes in the file end here, at the comma (or bracket) after its last element: hashed
    // once, they are both its key and its span's (a second hash of its text cost 0.16 s of the main thread at 1M).
    const span = this.#span;
    let raw: string | undefined;
    if (span !== undefined && span.first === this.#blockFirst) {
      span.hasher.update(chunk.subarray(span.from, end));
      raw = span.hasher.digest();
    }
    this.#closed = this.#flush(raw);
  }

  /**
   * Hands on the block collected (if any): its first element and hash. The hash is of its bytes in
   * the file (`raw`, after the comma that closed the block before: see BlockSpan) when they were
   * hashed, else of its text; marked apart, so that the two never name different blocks alike.
   */
  #flush(raw?: string): { readonly first: number; readonly hash: string; readonly raw: string | undefined } | undefined {
    if (this.#starts.length === 0) return undefined;
    // A view, not a copy: the receiver parses or copies it at once, before the buffer is reused.
    const bytes = this.#block.subarray(0, this.#blockLength);
    const hash = raw === undefined ? contentHash(bytes) : `${RAW_MARK}${raw}`;
    const first = this.#blockFirst;
    this.#events.block({ first, bytes, starts: this.#starts, lines: this.#lines, keys: this.#keys }, hash);
    this.#blockLength = 0;
    this.#starts = [];
    this.#lines = [];
    this.#keys = [];
    return { first, hash, raw };
  }

  /**
   * At the comma that ends a block closed by its last element (`closed`), `i` just after it: records
   * where the block lay, then skips the blocks after it whose bytes are where and what they were
   * (each taken by the receiver, unsplit), then starts hashing the next. Answers where scanning goes
   * on and its line.
   */
  #atBlockEnd(
    chunk: Buffer,
    i: number,
    line: number,
    closed: { readonly first: number; readonly hash: string; readonly raw: string | undefined },
  ): [number, number] {
    const span = this.#span;
    if (span !== undefined && span.first === closed.first && closed.raw !== undefined) {
      const length = this.#fileOffset + i - span.fileStart;
      this.#events.span({ first: closed.first, count: BLOCK_RECORDS, hash: closed.hash, length, raw: closed.raw, lines: line - span.line });
    }
    for (let known = this.#knownAt(chunk, i); known !== undefined; known = this.#knownAt(chunk, i)) {
      // The same bytes after the same comma: they end, as before, with the comma that closes the block.
      this.#events.span(known);
      i += known.length;
      line += known.lines;
      this.#index += known.count;
    }
    this.#span = { first: this.#index, fileStart: this.#fileOffset + i, from: i, line, hasher: contentHasher() };
    return [i, line];
  }

  /** The block whose bytes follow `i` in `chunk` as they did when the last build split it, if the receiver took it. */
  #knownAt(chunk: Buffer, i: number): BlockSpan | undefined {
    for (const known of this.#events.spansAt(this.#index)) {
      // Only a block whose bytes are all in this chunk (most are: a chunk holds a dozen), ending with a comma.
      if (known.count !== BLOCK_RECORDS || i + known.length > chunk.length || chunk[i + known.length - 1] !== COMMA) continue;
      if (contentHash(chunk.subarray(i, i + known.length - 1)) !== known.raw) continue;
      return this.#events.known(known) ? known : undefined;
    }
    return undefined;
  }

  #problem(expected: Message, got: string | Message | undefined, hint?: Message, index?: number): void {
    this.#span = undefined;
    this.#closed = undefined;
    this.#flush();
    this.#events.problem(expected, got, hint, index);
  }

  /** Scans one chunk; false when the file cannot be an array of subjects and reading should stop. */
  // long: one loop over every byte with its state in locals (see the class's comment): parts as methods would pass it through fields
  push(chunk: Buffer): boolean {
    const n = chunk.length;
    let i = this.#carry;
    let depth = this.#depth;
    let inString = this.#inString;
    let inElement = this.#inElement;
    let line = this.#line;
    let keys = this.#keyCount;
    let inside = this.#phase === "inside";
    this.#carry = 0;
    while (i < n) {
      if (inString || depth > 0) {
        // Inside an element, past its first byte (or in a string that is the element): up to its end.
        const state = this.#inside;
        state.depth = depth;
        state.inString = inString;
        state.line = line;
        state.keys = keys;
        i = scanInside(chunk, i, n, state);
        depth = state.depth;
        inString = state.inString;
        line = state.line;
        keys = state.keys;
        if (i > n) this.#carry = i - n;
        continue;
      }
      const c = chunk[i++] as number;
      if (c === LINE_FEED) {
        line++;
        continue;
      }
      if (c === SPACE || c === CARRIAGE_RETURN || c === TAB) continue;
      if (!inside) {
        if (this.#phase === "before") {
          const at = this.#fileOffset + i - 1;
          if (at < BOM_BYTES.length && c === BOM_BYTES[at]) continue;
          if (c === OPEN_BRACKET) {
            this.#phase = "inside";
            inside = true;
            continue;
          }
          const hint = c === OPEN_BRACE ? msg("hint.one-object") : undefined;
          this.#problem(msg("expected.json-array"), showValue(chunk.toString("utf8", i - 1, i + 39)), hint);
        } else {
          this.#problem(
            msg("expected.nothing-after-array"),
            showValue(chunk.toString("utf8", i - 1, i + 39)),
            msg("hint.on-line", { line }),
          );
        }
        return false;
      }
      // At the array's level (depth 0: the loop above takes every byte inside an element's nesting).
      if (c === COMMA || c === CLOSE_BRACKET) {
        if (inElement) {
          inElement = false;
          this.#finishElement(chunk, i - 1, keys);
        } else if (c === COMMA || this.#commaPending) {
          this.#problem(
            msg("expected.value"),
            msg("value.nothing"),
            msg(c === COMMA ? "hint.extra-comma" : "hint.trailing-comma", { line }),
            this.#index++,
          );
        }
        this.#commaPending = c === COMMA;
        const closed = this.#closed;
        this.#closed = undefined;
        if (closed !== undefined && c === COMMA) [i, line] = this.#atBlockEnd(chunk, i, line, closed);
        if (c === CLOSE_BRACKET) {
          this.#phase = "after";
          this.#span = undefined;
          inside = false;
        }
        continue;
      }
      if (!inElement) {
        inElement = true;
        this.#beginElement(i - 1, line);
        keys = 0;
      }
      // At the element's top level (its first byte, a scalar's, what follows its close): a string or a nesting begins, or
      // nothing (a stray `}` too: JSON.parse judges the element).
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth = 1;
    }
    if (inElement) {
      // Copied into the block now: the stream may reuse its buffers.
      this.#collect(chunk, this.#start, n);
      this.#start = 0;
    }
    if (this.#span !== undefined) {
      this.#span.hasher.update(chunk.subarray(this.#span.from, n));
      this.#span.from = 0;
    }
    this.#fileOffset += n;
    this.#depth = depth;
    this.#inString = inString;
    this.#inElement = inElement;
    this.#line = line;
    this.#keyCount = keys;
    return true;
  }

  /** Reports an array that never started or never closed. */
  end(): void {
    this.#span = undefined;
    if (this.#inElement && this.#long === undefined) {
      // An element cut short by the end of the file is not parsed: the problem below names it.
      const start = this.#starts.pop() ?? 0;
      this.#lines.pop();
      this.#blockLength = Math.max(0, start - 1);
    }
    this.#flush();
    if (this.#phase === "before") this.#events.problem(msg("expected.json-array"), msg("value.empty-file"), msg("hint.empty-array"));
    else if (this.#phase === "inside")
      this.#events.problem(
        msg("expected.array-end"),
        msg("value.end-of-file"),
        msg("hint.cut-short"),
        this.#inElement ? this.#index : undefined,
      );
  }
}

/**
 * Reads `file` (a JSON array) into `sink` block by block; problems of the array itself go to `problems`.
 * `chunkBytes`: the bytes read at once (tests read a few at a time, to put each byte at a read's end).
 */
export async function readJsonArray(
  file: SourceFile,
  sink: RecordSink,
  problems: ProblemSink,
  maxFieldLength: number = DEFAULT_MAX_FIELD_LENGTH,
  chunkBytes: number = CHUNK_BYTES,
): Promise<void> {
  const splitter = new ArraySplitter(
    {
      tooLong(index, bytes, long) {
        const where = locate(file, index);
        const bound = msg("expected.at-most-characters", { max: maxFieldLength });
        for (const { key, bytes: length } of long) {
          problems.push({
            severity: "error",
            ...where,
            field: key,
            value: msg("value.bytes", { count: length }),
            expected: bound,
            hint: msg("hint.max-field-length"),
          });
        }
        if (long.length === 0)
          problems.push({
            severity: "error",
            ...where,
            value: msg("value.bytes", { count: bytes }),
            expected: msg("expected.record-size"),
            hint: msg("hint.one-record"),
          });
      },
      block(text, hash) {
        sink.block({ first: text.first, count: text.starts.length, hash }, text);
      },
      spansAt: (first) => sink.spans?.get(first) ?? NO_SPANS,
      known: (span) => sink.known?.(span) ?? false,
      span: (span) => sink.span?.(span),
      problem(expected, got, hint, index) {
        problems.push({
          severity: "error",
          ...locate(file, index),
          expected,
          ...(got === undefined ? {} : { value: got }),
          ...(hint === undefined ? {} : { hint }),
        });
      },
    },
    maxFieldLength,
  );
  // Read into two buffers in turn: the splitter copies what it keeps of a chunk (into its block) before it asks for the next.
  const source = readSourcePieces(file, chunkBytes);
  try {
    for await (const chunk of source.pieces()) {
      if (!splitter.push(chunk)) return;
      await sink.ready?.();
    }
    splitter.end();
  } finally {
    for (const problem of await source.problems()) problems.push(problem);
  }
}
