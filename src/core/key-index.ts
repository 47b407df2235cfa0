/**
 * The two small indexes that find one subject without a file per subject: written by the build
 * (site/plan-keys.ts), searched by the router's hosts. Both are text of fixed-width lines, so a
 * binary search reads them where they lie, parsing nothing but the lines it visits.
 *
 * - The bounds (`_subjekti/keys.<hash>/bounds.txt`): one line a records chunk, its first subject's
 *   id and code: ids and codes rise along the list, so the last line at or below a key names the
 *   only chunk that can hold it. `<id, 16 digits> <code's value, zero-padded to the widest>\n`.
 * - The OIB index (`_subjekti/oib/<shard>.<hash>/<prefix>.txt`): every subject's OIB with its
 *   place in the list (0 for the first subject), sorted by OIB then by place, in one file per OIB
 *   prefix of `oibDigits` digits, so that a file holds about a thousand lines. `<oib> <place>\n`,
 *   the place zero-padded to a width fixed for the site. The place names the records chunk and the
 *   record's line in it, whose bytes the chunk's offsets table gives (record-offsets.ts): a lookup
 *   by OIB reads the index file, eight bytes of the table and the record. A line names no byte of
 *   a chunk, so an edit that changes a record's length moves no line: only an edit of an OIB (or a
 *   subject added or removed, which moves every place after it) changes the index.
 */

/** The shard key of the bounds. */
export const BOUNDS_SHARD_KEY = "keys";
/** The bounds' file name in its shard. */
export const BOUNDS_FILE = "bounds.txt";
/** Digits of an id in the bounds: every id is a safe integer. */
const ID_WIDTH = 16;
/** Lines of the OIB index aimed at in one file. */
const OIB_LINES_PER_FILE = 1000;
/** An OIB: exactly 11 ASCII digits. */
export const OIB_PATTERN = /^[0-9]{11}$/;

/** A code's value as digits without the zeros in front (so codes compare by length, then text). */
export function codeValue(code: string): string {
  return code.replace(/^0+(?=.)/, "");
}

/** The bounds line of a chunk whose first subject has `id` and `code`, codes padded to `width` digits. */
export function boundsLine(id: number, code: string, width: number): string {
  return `${String(id).padStart(ID_WIDTH, "0")} ${codeValue(code).padStart(width, "0")}\n`;
}

/** The chunk that can hold a subject of `id` (the last chunk whose first id is at most `id`); -1 if none. */
export function chunkOfId(bounds: string, id: bigint): number {
  if (id < 1n || id > BigInt(Number.MAX_SAFE_INTEGER)) return -1;
  const key = id.toString().padStart(ID_WIDTH, "0");
  return lastAtMost(bounds, (line) => compareText(line.slice(0, ID_WIDTH), key));
}

/** The chunk that can hold the subject whose code has the value of `code` (digits only); -1 if none. */
export function chunkOfCode(bounds: string, code: string): number {
  const lineLength = bounds.indexOf("\n") + 1;
  if (lineLength <= 0) return -1;
  const width = lineLength - ID_WIDTH - 2;
  const value = codeValue(code);
  // Longer than every first code: above them all.
  if (value.length > width) return bounds.length / lineLength - 1;
  const key = value.padStart(width, "0");
  return lastAtMost(bounds, (line) => compareText(line.slice(ID_WIDTH + 1, ID_WIDTH + 1 + width), key));
}

const NEWLINE = 0x0a;
const ENCODE = new TextEncoder();

/**
 * A subject's record in a chunk's bytes, by its id or its code (exactly as written); null if the
 * chunk has none. Ids and codes rise along the chunk as along the list, so a binary search finds
 * it: each probe backs up to the start of the line it falls in and reads the key there, a few
 * bytes of a dozen lines instead of a scan of the chunk. A rendered record starts
 * `{"id":<id>,"jedinstvena_oznaka":"<code>",` (a string's quotes are escaped), so the key is read
 * where it lies.
 */
export function findRecord(chunk: Uint8Array, key: { readonly id: bigint } | { readonly code: string }): Uint8Array | null {
  const byId = "id" in key;
  // Codes compare by value (no zeros in front), then must be the same text: "03" is not "3".
  const wanted = byId ? ENCODE.encode(key.id.toString()) : ENCODE.encode(codeValue(key.code));
  const exact = byId ? null : ENCODE.encode(key.code);
  const length = chunk.length;
  let low = 0;
  let high = length;
  // The first line whose key is not below the one wanted.
  while (low < high) {
    const mid = (low + high) >>> 1;
    const start = mid === 0 ? 0 : Math.max(low, chunk.lastIndexOf(NEWLINE, mid - 1) + 1);
    if (compareKey(chunk, start, byId, wanted) < 0) {
      const end = chunk.indexOf(NEWLINE, start);
      low = end === -1 ? length : end + 1;
    } else high = start;
  }
  for (let start = low; start < length; ) {
    let end = chunk.indexOf(NEWLINE, start);
    if (end === -1) end = length;
    if (compareKey(chunk, start, byId, wanted) !== 0) return null;
    if (exact === null || (bytesAt(chunk, codeStart(chunk, start), exact) && chunk[codeStart(chunk, start) + exact.length] === QUOTE))
      return chunk.subarray(start, end);
    start = end + 1;
  }
  return null;
}

const QUOTE = 0x22;
const SPACE = 0x20;
const COMMA = 0x2c;
const ZERO = 0x30;
/** `{"id":` */
const ID_AT = 6;
/** `,"jedinstvena_oznaka":"` */
const CODE_AFTER_ID = 23;

/** Where the code's text starts in the record at `start`. */
function codeStart(chunk: Uint8Array, start: number): number {
  return chunk.indexOf(COMMA, start + ID_AT) + CODE_AFTER_ID;
}

/** The key (id digits, or the code's digits without the zeros in front) of the record at `start` against `wanted`, by value. */
function compareKey(chunk: Uint8Array, start: number, byId: boolean, wanted: Uint8Array): number {
  let from: number;
  let to: number;
  if (byId) {
    from = start + ID_AT;
    to = chunk.indexOf(COMMA, from);
  } else {
    from = codeStart(chunk, start);
    to = chunk.indexOf(QUOTE, from);
    while (from < to - 1 && chunk[from] === ZERO) from++;
  }
  if (to - from !== wanted.length) return to - from - wanted.length;
  for (let i = 0; i < wanted.length; i++) {
    const d = (chunk[from + i] as number) - (wanted[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** Whether `bytes` lie in `chunk` at `at`. */
function bytesAt(chunk: Uint8Array, at: number, bytes: Uint8Array): boolean {
  if (at < 0 || at + bytes.length > chunk.length) return false;
  for (let i = 0; i < bytes.length; i++) if (chunk[at + i] !== bytes[i]) return false;
  return true;
}

/** A rendered record's OIB (its text between the quotes). */
export function recordOib(record: string): string {
  const at = record.indexOf('","oib":"') + 9;
  return record.slice(at, record.indexOf('"', at));
}

/** A rendered record's code (its text between the quotes). */
export function recordCode(record: string): string {
  const at = record.indexOf(',"jedinstvena_oznaka":"') + 23;
  return record.slice(at, record.indexOf('"', at));
}

/** How many digits of an OIB name its index file, for a list of `count` subjects. */
export function oibPrefixDigits(count: number): number {
  let digits = 0;
  while (digits < 11 && count > OIB_LINES_PER_FILE * 10 ** digits) digits++;
  return digits;
}

/** The digits of a place in the OIB index of a list of `count` subjects (every place below `count`). */
export function oibPlaceWidth(count: number): number {
  return String(Math.max(0, count - 1)).length;
}

/** The bytes of one OIB index line whose places are `placeWidth` digits. */
export function oibLineLength(placeWidth: number): number {
  return 11 + 1 + placeWidth + 1;
}

/**
 * Writes the OIB index line of the subject at `place` in the list whose OIB is `oib` (as a number:
 * 11 digits are exact in a double) into `into` at `at`: the build writes a million of them, digit
 * by digit, without a string each.
 */
export function writeOibLine(into: Uint8Array, at: number, oib: number, place: number, placeWidth: number): void {
  let to = at + oibLineLength(placeWidth) - 1;
  into[to] = NEWLINE;
  to = writeDigits(into, to, place, placeWidth);
  into[--to] = SPACE;
  // Above 2^31: split in two halves that integer arithmetic handles.
  const low = oib % 1e6;
  to = writeDigits(into, to, low, 6);
  writeDigits(into, to, (oib - low) / 1e6, 5);
}

/** Writes `value` as `width` digits (zeros in front) ending before `to`; returns where they start. */
function writeDigits(into: Uint8Array, to: number, value: number, width: number): number {
  let rest = value | 0;
  for (let i = 0; i < width; i++) {
    const next = (rest / 10) | 0;
    into[--to] = ZERO + rest - next * 10;
    rest = next;
  }
  return to;
}

/** The places in the list (rising) of the subjects whose OIB is `oib`, from its index file's text. */
export function oibPlaces(index: string, oib: string): number[] {
  const lineLength = index.indexOf("\n") + 1;
  if (lineLength <= 0) return [];
  const lines = index.length / lineLength;
  // The first line whose OIB is not below `oib`, then every line with that OIB.
  let low = 0;
  let high = lines;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (index.slice(mid * lineLength, mid * lineLength + 11) < oib) low = mid + 1;
    else high = mid;
  }
  const places: number[] = [];
  for (let line = low; line < lines && index.startsWith(oib, line * lineLength); line++)
    places.push(Number(index.slice(line * lineLength + 12, (line + 1) * lineLength - 1)));
  return places;
}

/** The last line `compare` finds at or below the key (compare(line) <= 0), by binary search; -1 if none. */
function lastAtMost(text: string, compare: (line: string) => number): number {
  const lineLength = text.indexOf("\n") + 1;
  if (lineLength <= 0) return -1;
  let low = 0;
  let high = text.length / lineLength;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compare(text.slice(mid * lineLength, (mid + 1) * lineLength)) <= 0) low = mid + 1;
    else high = mid;
  }
  return low - 1;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
