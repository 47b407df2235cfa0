/**
 * The fields the search reads from one rendered record (a line of a chunk file), found in its bytes:
 * the build writes every record with the same keys in the same order (renderSubject), so the
 * fields lie after known bytes and a JSON.parse of the whole record (and an object of ten strings)
 * is not needed. A string is decoded alone (by JSON.parse only when it holds an escape); a record
 * that does not look as expected is parsed whole, so the result is JSON.parse's either way.
 */
import { TEXT_HASH_PRIME, TEXT_HASH_SEED } from "../../common/text-table.ts";

/** The fields of a rendered record the search reads. */
export interface RecordFields {
  code: string;
  name: string;
  razina: string;
  date: string;
  status: boolean;
  odobreno: boolean;
  town: string;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const bytesOf = (text: string): Uint8Array => Buffer.from(text, "latin1");
const ID = bytesOf('{"id":');
const CODE = bytesOf(',"jedinstvena_oznaka":');
const NAME = bytesOf(',"naziv_subjekta":');
const OIB = bytesOf(',"oib":');
const RAZINA = bytesOf(',"razina":');
const DATE = bytesOf(',"datum_postanka":');
const STATUS = bytesOf(',"status_subjekta":');
const ODOBRENO = bytesOf(',"odobreno":');
const TOWN = bytesOf(',"institucija_grad":');
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");

/** A record's fields read from `bytes[start, end)` into `out` (reused from record to record). */
export function readRecordFields(bytes: Buffer, start: number, end: number, out: RecordFields): void {
  if (!scanFields(bytes, start, end, out)) parseFields(bytes.toString("utf8", start, end), out);
}

/** The fields by JSON.parse: a record written otherwise than renderSubject writes. */
function parseFields(line: string, out: RecordFields): void {
  const r = JSON.parse(line) as Record<string, unknown>;
  out.code = r.jedinstvena_oznaka as string;
  out.name = r.naziv_subjekta as string;
  out.razina = r.razina as string;
  out.date = r.datum_postanka as string;
  out.status = Boolean(r.status_subjekta);
  out.odobreno = Boolean(r.odobreno);
  out.town = r.institucija_grad as string;
}

/**
 * Buffer's own decoders, which `toString(encoding, start, end)` calls once it has checked its
 * arguments and looked the encoding up (node:buffer): called here directly for the two or three
 * strings a record decodes (its code, its name, a town not in the recent texts), with the choice
 * of decoder made from the bytes stringEnd reads anyway. readRecordFields over 400,000 records of
 * the 1M site took 322 ms where toString took 344 (medians of 10 in turn, not quiet).
 */
interface Decoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** Whether this Node has them (every Node since 0.x has; toString otherwise). */
const DIRECT =
  typeof (Buffer.prototype as Partial<Decoders>).latin1Slice === "function" &&
  typeof (Buffer.prototype as Partial<Decoders>).utf8Slice === "function";

/** The text of `bytes[from, to)` (UTF-8, no escape in them); `wide`: whether a byte is past ASCII (else one byte a unit, decoded as Latin-1: the same string). */
function decode(bytes: Buffer, from: number, to: number, wide: boolean): string {
  if (!DIRECT) return bytes.toString(wide ? "utf8" : "latin1", from, to);
  const direct = bytes as Buffer & Decoders;
  return wide ? direct.utf8Slice(from, to) : direct.latin1Slice(from, to);
}

/** Whether the last string stringEnd found holds a backslash, and whether a byte of it is past ASCII. */
let escaped = false;
let wide = false;

/** Where a string that begins at `at` (its opening quote) closes, or -1; `escaped` and `wide` say what it holds. */
function stringEnd(bytes: Buffer, at: number, end: number): number {
  if (bytes[at] !== QUOTE) return -1;
  let backslash = false;
  let high = 0;
  for (let i = at + 1; i < end; i++) {
    const b = bytes[i] as number;
    high |= b;
    if (b === QUOTE) {
      escaped = backslash;
      wide = high >= 0x80;
      return i;
    }
    if (b === BACKSLASH) {
      backslash = true;
      i++;
    }
  }
  return -1;
}

let cursor = 0;

/** How a field's string is read: not at all (the OIB), decoded, or through the cache of recent texts. */
const SKIP = 0;
const DECODE = 1;
const RECENT = 2;

/** The string at `cursor` after `key`, read as `read` says, with `cursor` past it; null when the bytes are not as expected. */
function stringAfter(bytes: Buffer, key: Uint8Array, end: number, read: number): string | null {
  if (!startsAt(bytes, cursor, key)) return null;
  const from = cursor + key.length;
  const to = stringEnd(bytes, from, end);
  if (to < 0) return null;
  cursor = to + 1;
  if (read === SKIP) return "";
  if (escaped) return JSON.parse(bytes.toString("utf8", from, to + 1)) as string;
  return read === RECENT ? recentText(bytes, from + 1, to, wide) : decode(bytes, from + 1, to, wide);
}

/** Slots of the cache of recent texts (a power of two), and the most bytes a text kept there has. */
const RECENT_SLOTS = 1 << 12;
const RECENT_WIDTH = 64;
const recent: string[] = new Array<string>(RECENT_SLOTS).fill("");
/** Each slot's text as its bytes (`RECENT_WIDTH` a slot) and their length (-1: none). */
const recentBytes = new Uint8Array(RECENT_SLOTS * RECENT_WIDTH);
const recentLength = new Int32Array(RECENT_SLOTS).fill(-1);

/**
 * The text of the bytes `bytes[from, to)` (no escape in them; `wide` as for decode): the same string as last time when
 * their slot (by hash) holds the same bytes. The razina, the dates and the towns repeat (a million
 * subjects have 166,000 towns, the commonest in thousands of records), and a string found here is
 * neither decoded again nor hashed again by the Maps that look it up, nor held twice by the sorts of
 * the order files (sorted-runs.ts) a run long. The slot keeps the bytes, not only the string, so
 * that a town of letters past ASCII (a third of them: Đakovo, Požega) is found too: decoded afresh,
 * each was a new string that lived through collections of the young generation until its run was
 * sorted.
 */
function recentText(bytes: Buffer, from: number, to: number, wide: boolean): string {
  const length = to - from;
  if (length > RECENT_WIDTH) return decode(bytes, from, to, wide);
  // FNV-1a over the bytes, as textHash over code units (common/text-table.ts).
  let hash = TEXT_HASH_SEED;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ (bytes[i] as number), TEXT_HASH_PRIME);
  const slot = (hash >>> 0) & (RECENT_SLOTS - 1);
  const at = slot * RECENT_WIDTH;
  if (recentLength[slot] === length) {
    let same = true;
    for (let i = 0; same && i < length; i++) same = recentBytes[at + i] === bytes[from + i];
    if (same) return recent[slot] as string;
  }
  const text = decode(bytes, from, to, wide);
  recent[slot] = text;
  recentLength[slot] = length;
  for (let i = 0; i < length; i++) recentBytes[at + i] = bytes[from + i] as number;
  return text;
}

/** The boolean at `cursor` after `key`, with `cursor` past it; null when the bytes are not as expected. */
function booleanAfter(bytes: Buffer, key: Uint8Array): boolean | null {
  if (!startsAt(bytes, cursor, key)) return null;
  const at = cursor + key.length;
  if (startsAt(bytes, at, TRUE)) {
    cursor = at + TRUE.length;
    return true;
  }
  if (startsAt(bytes, at, FALSE)) {
    cursor = at + FALSE.length;
    return false;
  }
  return null;
}

function scanFields(bytes: Buffer, start: number, end: number, out: RecordFields): boolean {
  if (!startsAt(bytes, start, ID)) return false;
  cursor = start + ID.length;
  while (cursor < end && bytes[cursor] !== 0x2c) {
    const b = bytes[cursor] as number;
    // The id is a number (digits); anything else is read by JSON.parse.
    if (b < 0x30 || b > 0x39) return false;
    cursor++;
  }
  const code = stringAfter(bytes, CODE, end, DECODE);
  if (code === null) return false;
  const name = stringAfter(bytes, NAME, end, DECODE);
  if (name === null || stringAfter(bytes, OIB, end, SKIP) === null) return false;
  const razina = stringAfter(bytes, RAZINA, end, RECENT);
  if (razina === null) return false;
  const date = stringAfter(bytes, DATE, end, RECENT);
  if (date === null) return false;
  const status = booleanAfter(bytes, STATUS);
  if (status === null) return false;
  const odobreno = booleanAfter(bytes, ODOBRENO);
  if (odobreno === null) return false;
  const town = stringAfter(bytes, TOWN, end, RECENT);
  if (town === null) return false;
  out.code = code;
  out.name = name;
  out.razina = razina;
  out.date = date;
  out.status = status;
  out.odobreno = odobreno;
  out.town = town;
  return true;
}

function startsAt(bytes: Uint8Array, at: number, key: Uint8Array): boolean {
  if (at + key.length > bytes.length) return false;
  for (let i = 0; i < key.length; i++) if (bytes[at + i] !== key[i]) return false;
  return true;
}
