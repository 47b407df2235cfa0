/**
 * A block of source records, validated and rendered: what the reader hands on instead of parsed
 * objects. It runs on the main thread (NDJSON, CSV, small inputs) and in the record threads
 * (record-threads.ts run this module: answerTask) for large JSON arrays, where parsing, validating and rendering are most of a
 * build's CPU time. Its output is plain data (bytes, typed arrays, strings, problems), so it
 * crosses threads cheaply, and a million parsed objects never pile up on one heap.
 */
import { renderSubject } from "../../core/render-page.ts";
import type { RenderedBlock } from "../hand-offs.ts";
import { storeBlock } from "./build-cache.ts";
import { contentHash } from "../../common/content-hash.ts";
import { isUtf8 } from "node:buffer";
import { parseBlock, type PlainTaker } from "../sources/parse-block.ts";
import { PlainRecord, RENDERED_EXTRA } from "./plain-record.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "../read-options.ts";
import type { BlockText, RecordSource } from "../sources/record-sink.ts";
import { type Problem, ProblemCollector, type ProblemSink } from "../problems/problems.ts";
import { showValue } from "../problems/problem-parts.ts";
import { placeInCells } from "../sources/sheet-cells.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";
import type { FormNote } from "../sources/spreadsheet-forms.ts";
import { validateSubject } from "../rules/validate-subject.ts";

const LINE_FEED = 0x0a;
/** A valid code: at least 4 digits (subject-schema.ts). */
const CODE = /^[0-9]{4,}$/;

/** Collects records one at a time: validated, rendered into one growing buffer. */
export class BlockRenderer {
  readonly #file: SourceFile;
  readonly #strict: boolean;
  readonly #maxFieldLength: number;
  #bytes = BlockRenderer.#takeSpare();
  #length = 0;
  #ends: number[] = [];
  #ids: number[] = [];
  #codes: string[] = [];
  #oibs: string[] = [];
  #positions: number[] = [];
  /** Bounded: a block of a million bad records keeps a few problems of each kind and counts the rest. */
  readonly problems = new ProblemCollector(undefined, { keepWarnings: true });
  static readonly #encoder = new TextEncoder();
  /**
   * A released renderer's buffer, for the next one made: renderJsonBlock makes a renderer a block,
   * and a buffer grown from 64 KB each time was four fresh buffers and three copies a block.
   */
  static #spare: Uint8Array | undefined;

  static #takeSpare(): Uint8Array {
    const spare = BlockRenderer.#spare ?? new Uint8Array(64 * 1024);
    BlockRenderer.#spare = undefined;
    return spare;
  }

  constructor(file: SourceFile, strict: boolean, maxFieldLength: number = DEFAULT_MAX_FIELD_LENGTH) {
    this.#file = file;
    this.#strict = strict;
    this.#maxFieldLength = maxFieldLength;
  }

  get count(): number {
    return this.#ends.length;
  }

  /**
   * Takes a JSON array's plain records from their bytes, rendered without being parsed
   * (plain-record.ts); for a block of well-formed UTF-8, which the record is scanned as.
   */
  plainTaker(): PlainTaker {
    const plain = new PlainRecord();
    return {
      scan: (bytes, from, to) => plain.scan(bytes, from, to, this.#maxFieldLength),
      take: (position) => {
        this.#room(plain.size + RENDERED_EXTRA + 1);
        this.#length = plain.write(this.#bytes, this.#length);
        this.#keep(plain.id, plain.code(), plain.oib(), position);
      },
    };
  }

  /** Validates a parsed record (read from the spreadsheet forms in `notes`); renders it when it has no error. */
  add(value: unknown, position: number, source?: RecordSource, notes?: readonly FormNote[]): void {
    const sheet = this.#file.sheet;
    // A spreadsheet's record: its problems are first given their cells, then collected.
    const local: Problem[] | undefined = sheet !== undefined || (notes !== undefined && notes.length > 0) ? [] : undefined;
    const sink: ProblemSink = local ?? this.problems;
    if (notes !== undefined && notes.length > 0) {
      const where = locate(this.#file, position);
      const severity = this.#strict ? "error" : "warning";
      for (const n of notes)
        sink.push({
          severity,
          ...where,
          form: n.form,
          field: n.field,
          value: showValue(n.value),
          expected: n.expected,
          ...(n.hint === undefined ? {} : { hint: n.hint }),
        });
    }
    const subject = validateSubject(value, this.#file, position, this.#strict, sink, this.#maxFieldLength, source);
    if (local !== undefined) {
      if (sheet !== undefined) placeInCells(local, 0, sheet, position);
      for (const p of local) this.problems.push(p);
    }
    if (subject === undefined) {
      this.#keysOnly(value, position);
      return;
    }
    const text = renderSubject(subject);
    // A UTF-16 unit is at most 3 UTF-8 bytes, and the line break one; grow before writing so nothing is cut off.
    this.#room(text.length * 3 + 1);
    this.#length += BlockRenderer.#encoder.encodeInto(text, this.#bytes.subarray(this.#length)).written;
    // The line break as a byte: `${text}\n` was one more string to make and flatten a record.
    this.#bytes[this.#length++] = LINE_FEED;
    this.#keep(subject.id, subject.jedinstvena_oznaka, subject.oib, position);
  }

  /** Grows the buffer, if need be, to take `most` bytes more. */
  #room(most: number): void {
    if (this.#length + most <= this.#bytes.length) return;
    const grown = new Uint8Array(Math.max(this.#bytes.length * 2, this.#length + most));
    grown.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = grown;
  }

  /** A record rendered up to #length: its keys and position. */
  #keep(id: number, code: string, oib: string, position: number): void {
    this.#ends.push(this.#length);
    this.#ids.push(id);
    this.#codes.push(code);
    this.#oibs.push(oib);
    this.#positions.push(position);
  }

  /**
   * A record with an error whose id and code are valid is still held by its keys (no bytes): the
   * rules across records (duplicates, codes rising) check it too, so one run shows its error and
   * a duplicate code together. The run fails anyway, so nothing is written from it.
   */
  #keysOnly(value: unknown, position: number): void {
    if (typeof value !== "object" || value === null) return;
    const { id, jedinstvena_oznaka: code } = value as Record<string, unknown>;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id < 1 || typeof code !== "string" || !CODE.test(code)) return;
    this.#ends.push(this.#length);
    this.#ids.push(id);
    this.#codes.push(code);
    this.#oibs.push("");
    this.#positions.push(position);
  }

  /** Gives this renderer's buffer to the next renderer made: call it last, this one is not used again. */
  release(): void {
    BlockRenderer.#spare = this.#bytes;
  }

  /**
   * The block so far (its bytes copied into `into` when it holds them, else into a buffer of their
   * own an eighth larger, so that they can be transferred and the buffer serve a later block); starts a new one.
   */
  finish(into?: ArrayBuffer): RenderedBlock {
    const length = this.#length;
    const memory = into !== undefined && into.byteLength >= length ? into : new ArrayBuffer(length + (length >> 3));
    const bytes = new Uint8Array(memory, 0, length);
    bytes.set(this.#bytes.subarray(0, length));
    const block: RenderedBlock = {
      bytes,
      hash: contentHash(bytes),
      ends: Uint32Array.from(this.#ends),
      ids: Float64Array.from(this.#ids),
      codes: this.#codes,
      oibs: this.#oibs,
      positions: Uint32Array.from(this.#positions),
      problems: this.problems.problems.slice(),
      dropped: this.problems.dropped(),
    };
    this.problems.clear();
    this.#length = 0;
    this.#ends = [];
    this.#ids = [];
    this.#codes = [];
    this.#oibs = [];
    this.#positions = [];
    return block;
  }
}

/** What a record thread is asked: one block of a JSON array. */
export interface BlockTask {
  readonly file: SourceFile;
  readonly strict: boolean;
  /** The longest a text field may be (DEFAULT_MAX_FIELD_LENGTH when not given). */
  readonly maxFieldLength?: number;
  readonly text: BlockText;
  /** The build cache's file for this block (build-cache.ts): stored there when it has no error. */
  readonly store?: string;
  /** A buffer to render the block's bytes into when it holds them (one a block used, given back: record-threads.ts). */
  readonly into?: ArrayBuffer;
}

/** Parses, validates and renders one block of a JSON array (syntax problems included), and stores it when asked. */
export function renderJsonBlock(task: BlockTask): RenderedBlock {
  const renderer = new BlockRenderer(task.file, task.strict, task.maxFieldLength);
  // Plain records are taken from bytes that are well-formed UTF-8 (isUtf8 checks the block at once); a block
  // with a byte that is not is parsed whole, as its decoding replaces that byte.
  const plain = isUtf8(task.text.bytes) ? renderer.plainTaker() : undefined;
  parseBlock(
    task.text,
    task.file,
    { record: (value, position, source) => renderer.add(value, position, source) },
    renderer.problems,
    plain,
  );
  const block = renderer.finish(task.into);
  renderer.release();
  if (task.store === undefined || block.problems.some((p) => p.severity === "error")) return block;
  return { ...block, ...storeBlock(task.store, block) };
}

/** What a record thread answers: the block, and the buffer its text came in, for the next text (record-threads.ts). */
export interface ThreadAnswer {
  readonly block: RenderedBlock;
  readonly text: ArrayBuffer;
}

/**
 * A record thread's answer to a task (threads/module-thread.mjs calls it): the block, its buffers
 * moved to the main thread, not copied, and the task's text buffer moved back with it (nothing
 * keeps it once the block is rendered).
 */
export function answerTask(task: BlockTask): { result: ThreadAnswer; transfer: ArrayBuffer[] } {
  const block = renderJsonBlock(task);
  const text = task.text.bytes.buffer as ArrayBuffer;
  return {
    result: { block, text },
    transfer: [block.bytes.buffer, block.ends.buffer, block.ids.buffer, block.positions.buffer, text] as ArrayBuffer[],
  };
}
