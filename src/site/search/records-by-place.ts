/**
 * Records of the new list read by place (the patch of an edit compares a few against the changed
 * ones: a binary search in an order, the neighbours of a changed name): a chunk file read whole
 * when first asked for, a few kept.
 */
import { readFileSync } from "node:fs";
import type { ChunkFile } from "../read-chunks.ts";
import { readRecordFields, type RecordFields } from "./record-fields.ts";

/** Chunks kept read (a binary search starts at the same middles each time). */
const KEPT = 64;

export class RecordsByPlace {
  readonly #chunkSize: number;
  readonly #fileOf: (chunk: number) => ChunkFile;
  readonly #chunks = new Map<number, Buffer[]>();
  readonly #fields = new Map<number, RecordFields>();

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

  /** The bytes of the record at `place`. */
  line(place: number): Buffer {
    const chunk = Math.floor(place / this.#chunkSize);
    let records = this.#chunks.get(chunk);
    if (records === undefined) {
      if (this.#chunks.size === KEPT) this.#chunks.delete(this.#chunks.keys().next().value as number);
      records = lines(readFileSync(this.#fileOf(chunk).path));
      this.#chunks.set(chunk, records);
    }
    const line = records[place - chunk * this.#chunkSize];
    if (line === undefined) throw new Error(`no record at place ${place}`);
    return line;
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
