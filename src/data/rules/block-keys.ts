/**
 * A block's keys in compact form, as the build cache stores them (build-cache.ts): the OIBs as
 * numbers and the codes as one run of bytes, with the facts the checks across records ask of a
 * block whose records follow one another. A rebuild takes nearly every block from the cache; made
 * into strings, their keys were two million strings at a million subjects (most of the read's
 * garbage), and checked record by record, most of its checks. With these, a block in order costs
 * the checks a comparison or two (check-sequence.ts, next-keys.ts), and the OIB check reads
 * numbers and bytes (check-oibs.ts); a record's code is made a string only when a check needs its
 * text (codesOf: a block out of order, a problem located).
 */
import { compareDigits } from "./compare-digits.ts";

/** What a block's records are known to be without reading them one by one. */
export interface KnownKeys {
  /** Each record's OIB (11 digits) as a number; NO_OIB for a record held only for its keys. */
  readonly oibs: Float64Array;
  /** The codes' bytes (ASCII digits), one after another, and where each ends. */
  readonly codeBytes: Uint8Array;
  readonly codeEnds: Uint32Array;
  /** Whether each record follows the one before it: ids and codes (by value) strictly rising. */
  readonly rising: boolean;
  /** The first code that no other code of the block passes by value ("" in a block of none). */
  readonly highestCode: string;
}

/** The OIB of a record held only for its keys (it has an error of its own). */
export const NO_OIB = -1;

/** The compact keys of a block whose keys are strings (as a record thread renders it). */
export function knownKeysOf(ids: ArrayLike<number>, codes: readonly string[], oibs: readonly string[]): KnownKeys {
  const text = codes.join("");
  // An array of its own, not a slice of Buffer's pool: a record thread's block is copied to the main thread whole.
  const codeBytes = new Uint8Array(text.length);
  Buffer.from(codeBytes.buffer).write(text, "latin1");
  const codeEnds = new Uint32Array(codes.length);
  let rising = true;
  let highestCode = "";
  let end = 0;
  for (let k = 0; k < codes.length; k++) {
    const code = codes[k] as string;
    codeEnds[k] = end += code.length;
    if (k > 0 && !((ids[k - 1] as number) < (ids[k] as number) && compareDigits(codes[k - 1] as string, code) < 0)) rising = false;
    if (highestCode === "" || compareDigits(code, highestCode) > 0) highestCode = code;
  }
  const values = Float64Array.from(oibs, (oib) => (oib === "" ? NO_OIB : Number(oib)));
  return { oibs: values, codeBytes, codeEnds, rising, highestCode };
}

/** Whether `known` can stand for `codes` and `oibs` as stored: codes of ASCII digits (any other is read back as a miss). */
export function isCompact(codes: readonly string[], oibs: readonly string[]): boolean {
  for (const code of codes) if (!isDigits(code)) return false;
  for (const oib of oibs) if (oib !== "" && !(oib.length === 11 && isDigits(oib))) return false;
  return true;
}

/** Whether `text` is ASCII digits alone (by index: a block stored is a thousand of each in the thread that renders it). */
function isDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Each record's code as a string. */
export function codesOf(known: KnownKeys): string[] {
  const { codeBytes, codeEnds } = known;
  const text = Buffer.from(codeBytes.buffer, codeBytes.byteOffset, codeBytes.length).toString("latin1");
  const codes = new Array<string>(codeEnds.length);
  for (let k = 0, start = 0; k < codeEnds.length; start = codeEnds[k++] as number) codes[k] = text.slice(start, codeEnds[k]);
  return codes;
}

/** Each record's OIB as its 11 digits ("" for NO_OIB). */
export function oibTextsOf(known: KnownKeys): string[] {
  return Array.from(known.oibs, (oib) => (oib === NO_OIB ? "" : String(oib).padStart(11, "0")));
}

/** The code of record `k` (codesOf's one, without the others). */
export function codeAt(known: Pick<KnownKeys, "codeBytes" | "codeEnds">, k: number): string {
  const start = k === 0 ? 0 : (known.codeEnds[k - 1] as number);
  const { codeBytes } = known;
  return Buffer.from(codeBytes.buffer, codeBytes.byteOffset, codeBytes.length).toString("latin1", start, known.codeEnds[k]);
}
