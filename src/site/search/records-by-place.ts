/**
 * Records of the new list read by place (the patch of an edit compares a few against the changed
 * ones: a binary search in an order, the neighbours of a changed name): a chunk file read into one
 * buffer kept for every chunk (the last chunk's bytes kept there), the record's bytes copied out of
 * it. A chunk read into fresh memory each time (a binary search meets some twenty chunks, 287 KB
 * each at a million subjects) paid a fault a page.
 */
import { WholeFiles } from "../../common/read-into.ts";
import type { ChunkFile } from "../read-chunks.ts";
import { readRecordFields, type RecordFields } from "./record-fields.ts";

export class RecordsByPlace {
  readonly #chunkSize: number;
  readonly #fileOf: (chunk: number) => ChunkFile;
  readonly #fields = new Map<number, RecordFields>();
  /** Every chunk read into one buffer, in turn. */
  readonly #files = new WholeFiles();
  /** The bytes of chunk `#chunk` (in #files's buffer), and where each of its records begins once found. */
  #bytes: Buffer = Buffer.alloc(0);
  #chunk = -1;
  #starts: number[] = [];

  constructor(chunkSize: number, fileOf: (chunk: number) => ChunkFile) {
    this.#chunkSize = chunkSize;
    this.#fileOf = fileOf;
  }

  /** The fields of the record at `place` (kept: the same object each time). */
  fields(place: number): RecordFields {
    let fields = this.#fields.get(place);
    if (fields !== undefined) return fields;
    const line = this.line(place);
    fields = { code: "", name: "", razina: "", date: "", status: false, odobreno: false, town: "" };
    readRecordFields(line, 0, line.length, fields);
    this.#fields.set(place, fields);
    return fields;
  }

  /** The bytes of the record at `place` (a copy of their own). */
  line(place: number): Buffer {
    const chunk = Math.floor(place / this.#chunkSize);
    if (chunk !== this.#chunk) this.#read(chunk);
    const index = place - chunk * this.#chunkSize;
    // Each record's start found once, as far as asked.
    const starts = this.#starts;
    while (starts.length <= index + 1) {
      const last = starts[starts.length - 1] as number;
      if (last >= this.#bytes.length) break;
      const end = this.#bytes.indexOf(NEWLINE, last);
      starts.push(end === -1 || end >= this.#bytes.length ? this.#bytes.length + 1 : end + 1);
    }
    const start = starts[index];
    if (start === undefined || start >= this.#bytes.length || index + 1 >= starts.length) throw new Error(`no record at place ${place}`);
    return Buffer.from(this.#bytes.subarray(start, (starts[index + 1] as number) - 1));
  }

  /** Reads chunk `chunk` whole into the kept buffer (grown where it is too small). */
  #read(chunk: number): void {
    this.#chunk = -1;
    this.#bytes = this.#files.read(this.#fileOf(chunk).path);
    this.#chunk = chunk;
    this.#starts = [0];
  }
}

const NEWLINE = 0x0a;

/** The lines of a chunk file (records, without their newlines), as the whole stage splits them. */
export function lines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(NEWLINE, start);
    if (end === -1) end = bytes.length;
    out.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return out;
}
