/**
 * Each records chunk's keys, written after its offsets in the chunk's table (record-offsets.ts),
 * so that one small read finds a subject's line by its id or code, and the line's offsets (in the
 * same bytes) name the record's byte range: a lookup reads the table and the record, never the
 * chunk. Ids and codes rise along a chunk as along the list, so a binary search finds the line.
 *
 * After the `n + 1` offsets of a chunk of `n` records:
 * - `n` ids, little-endian 64-bit floats (every id is a safe integer, exact in a double);
 * - `n` codes' values (digits without the zeros in front), each zero-padded to the widest of the
 *   chunk's, as ASCII: equal widths compare as text, and the width is the table's remaining
 *   length over `n` (the record count comes from the manifest).
 */
import { codeValue } from "./key-index.ts";
import { OFFSET_BYTES, offsetAt, offsetsOfEnds, recordOffsets } from "./record-offsets.ts";

/** Bytes of one id in the table. */
const ID_BYTES = 8;
const ZERO = 0x30;

/**
 * A chunk's whole table: its offsets (record-offsets.ts; from `ends`, where its lines end, when
 * given and right for it), then its keys. The build writes one a
 * chunk on its main thread, so the keys are read as digits where they lie and written into the
 * table directly, no string made. A rendered record starts
 * `{"id":<id>,"jedinstvena_oznaka":"<code>",` (digits, as the build checked them).
 */
export function recordTable(chunk: Uint8Array, ends?: Uint32Array): Uint8Array {
  // Where the lines end, when known (a whole rendered block's): searching the bytes for them was most of a table's time.
  const offsets = (ends === undefined ? null : offsetsOfEnds(chunk, ends)) ?? recordOffsets(chunk);
  const records = Math.max(0, offsets.length / OFFSET_BYTES - 1);
  // Where each code's value starts (its zeros in front skipped) and ends.
  const from = new Uint32Array(records);
  const to = new Uint32Array(records);
  const ids = new Float64Array(records);
  let width = 0;
  for (let i = 0; i < records; i++) {
    let at = offsetAt(offsets, i) + ID_AT;
    let id = 0;
    for (let digit = chunk[at] as number; digit !== COMMA; digit = chunk[++at] as number) id = id * 10 + (digit - ZERO);
    ids[i] = id;
    at += CODE_AFTER_ID;
    // A loop to the code's closing quote, not a typed array's indexOf: a call of that costs more than the few digits.
    let end = at;
    while (end < chunk.length && chunk[end] !== QUOTE) end++;
    while (at < end - 1 && chunk[at] === ZERO) at++;
    [from[i], to[i]] = [at, end];
    width = Math.max(width, end - at);
  }
  const idsAt = offsets.length;
  const codesAt = idsAt + records * ID_BYTES;
  const table = new Uint8Array(codesAt + records * width);
  table.set(offsets);
  const view = new DataView(table.buffer);
  for (let i = 0; i < records; i++) view.setFloat64(idsAt + i * ID_BYTES, ids[i] as number, true);
  table.fill(ZERO, codesAt);
  // Byte by byte: a code is a few digits, and a view and a copy call a record cost more than them.
  for (let i = 0; i < records; i++) {
    const [start, end] = [from[i] as number, to[i] as number];
    let at = codesAt + (i + 1) * width - (end - start);
    for (let k = start; k < end; k++) table[at++] = chunk[k] as number;
  }
  return table;
}

/**
 * The ids of a chunk of `chunkLength` bytes, read from its whole table (recordTable's): the records
 * are as many as the offsets before the one at the chunk's end (one past it when its last line has
 * no "\n"), their ids follow. Null when the table has not that shape. A reader of the ids alone
 * reads some 20 bytes a record here, not the record's few hundred.
 */
export function tableIds(table: Uint8Array, chunkLength: number): number[] | null {
  if (chunkLength === 0) return table.length === 0 ? [] : null;
  let records = 0;
  while ((records + 1) * OFFSET_BYTES <= table.length && offsetAt(table, records) < chunkLength) records++;
  if ((records + 1) * OFFSET_BYTES > table.length || records === 0) return null;
  const last = offsetAt(table, records);
  const idsAt = (records + 1) * OFFSET_BYTES;
  const codes = table.length - idsAt - records * ID_BYTES;
  if ((last !== chunkLength && last !== chunkLength + 1) || codes < 0 || codes % records !== 0) return null;
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const ids = new Array<number>(records);
  for (let i = 0; i < records; i++) ids[i] = view.getFloat64(idsAt + i * ID_BYTES, true);
  return ids;
}

const COMMA = 0x2c;
const QUOTE = 0x22;
/** `{"id":` */
const ID_AT = 6;
/** `,"jedinstvena_oznaka":"` */
const CODE_AFTER_ID = 23;

/**
 * The line of the record of `key` in a chunk of `records` records whose whole table is `table`;
 * -1 when the chunk has no record of that id or code value, null when the table does not have the
 * shape of one of `records` records (a file of another layout).
 */
export function keyLine(table: Uint8Array, records: number, key: { readonly id: bigint } | { readonly code: string }): number | null {
  const idsAt = (records + 1) * OFFSET_BYTES;
  const codesAt = idsAt + records * ID_BYTES;
  const width = records === 0 ? 0 : (table.length - codesAt) / records;
  if (!Number.isInteger(width) || width < 0) return null;
  let low = 0;
  let high = records;
  if ("id" in key) {
    const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
    const id = Number(key.id);
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (view.getFloat64(idsAt + mid * ID_BYTES, true) < id) low = mid + 1;
      else high = mid;
    }
    return low < records && view.getFloat64(idsAt + low * ID_BYTES, true) === id ? low : -1;
  }
  const value = codeValue(key.code);
  if (value.length > width) return -1;
  const padded = new Uint8Array(width).fill(ZERO);
  for (let k = 0; k < value.length; k++) padded[width - value.length + k] = value.charCodeAt(k);
  const compare = (line: number): number => {
    const at = codesAt + line * width;
    for (let k = 0; k < width; k++) {
      const d = (table[at + k] as number) - (padded[k] as number);
      if (d !== 0) return d;
    }
    return 0;
  };
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(mid) < 0) low = mid + 1;
    else high = mid;
  }
  return low < records && compare(low) === 0 ? low : -1;
}
