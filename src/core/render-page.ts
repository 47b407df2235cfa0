/**
 * The bytes of a page, as DRF's `JSONRenderer` writes them: compact separators, keys in the
 * serializer's order, UTF-8 unescaped (`ensure_ascii=False`) but U+2028 and U+2029, which the
 * renderer escapes so the output stays valid JavaScript.
 */
import type { PageLinks } from "./build-links.ts";

/** One subject, its fields in the order the seed's table lists them (which is the output order). */
export interface Subject {
  readonly id: number;
  readonly jedinstvena_oznaka: string;
  readonly naziv_subjekta: string;
  readonly oib: string;
  readonly razina: string;
  readonly datum_postanka: string;
  readonly status_subjekta: boolean;
  readonly odobreno: boolean;
  readonly institucija_grad: string;
  readonly institucija_email: string;
}

/** The ten field names in output order. */
export const SUBJECT_FIELDS = [
  "id",
  "jedinstvena_oznaka",
  "naziv_subjekta",
  "oib",
  "razina",
  "datum_postanka",
  "status_subjekta",
  "odobreno",
  "institucija_grad",
  "institucija_email",
] as const satisfies readonly (keyof Subject)[];

/** The fields that hold text (the id is a number, the two flags booleans), in output order. */
export const SUBJECT_TEXT_FIELDS = [
  "jedinstvena_oznaka",
  "naziv_subjekta",
  "oib",
  "razina",
  "datum_postanka",
  "institucija_grad",
  "institucija_email",
] as const satisfies readonly (keyof Subject)[];

const LINE_SEPARATORS = /[\u2028\u2029]/g;
const HAS_LINE_SEPARATOR = /[\u2028\u2029]/;

/** JSON as DRF renders it; JSON.stringify already matches Python's escapes for everything else. */
export function toJson(value: unknown, indent = 0): string {
  const json = indent === 0 ? JSON.stringify(value) : JSON.stringify(value, null, indent);
  return HAS_LINE_SEPARATOR.test(json) ? escapeLineSeparators(json) : json;
}

/**
 * Compact JSON re-rendered as JSONRenderer writes it for `Accept: …; indent=n`: Python's
 * `json.dumps(data, indent=n, separators=(",", ": "), ensure_ascii=False)`, which
 * `JSON.stringify(data, null, n)` matches; U+2028/9 stay escaped. An indent of 0 is compact.
 */
export function indentJson(json: string, indent: number): string {
  return indent === 0 ? json : UTF8_DECODER.decode(indentJsonBytes(UTF8_ENCODER.encode(json), indent));
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder("utf-8", { ignoreBOM: true });
const [QUOTE, BACKSLASH, COMMA, COLON, NEWLINE, SPACE] = [0x22, 0x5c, 0x2c, 0x3a, 0x0a, 0x20];
const [OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x7b, 0x7d, 0x5b, 0x5d];
const SPACES = 0x20202020;

/**
 * `indentJson` on the UTF-8 bytes of compact JSON, in one pass that never parses it: a line break
 * written after each structural byte outside strings, every other byte copied. Parsing a
 * `limit=1000` page and writing it again cost three times the compact page. In UTF-8 no byte of a
 * multi-byte character is ASCII, so every `"`, `\\`, bracket, comma and colon seen is one.
 */
export function indentJsonBytes(json: Uint8Array, indent: number): Uint8Array {
  if (indent === 0) return json;
  const pass = startIndenting(json.length, indent);
  indentInto(pass, json, 0, json.length);
  return pass.out.subarray(0, pass.at);
}

/**
 * A pretty-printing pass over compact JSON fed in parts (a page's head, its records straight from
 * their chunks, its tail), so a page is indented without first being joined: the output so far,
 * the nesting reached, and how many input bytes are still to come.
 */
export interface Indenting {
  out: Uint8Array;
  /** `out` read as words. */
  outWords: DataView;
  /** The last input fed and its view as words (a page's records come in many parts of one chunk). */
  input: Uint8Array | null;
  inputWords: DataView | null;
  at: number;
  depth: number;
  /** Input bytes not fed yet: none becomes more than two, so the buffer keeps room for twice them. */
  rest: number;
  readonly indent: number;
}

/** A pass over `length` bytes of compact JSON in all, at `indent` spaces a level (1 or more). */
export function startIndenting(length: number, indent: number): Indenting {
  const out = new Uint8Array(length * 2 + 64);
  return { out, outWords: new DataView(out.buffer), input: null, inputWords: null, at: 0, depth: 0, rest: length, indent };
}

/**
 * Feeds compact JSON bytes `json[from, to)` to the pass. A part ends between values, never inside
 * a string; `{}` and `[]` are seen as empty only within one part; a "\n" between values is a `,`.
 * A string is copied four bytes at a time by the same loop that finds its end: a search for its
 * closing quote and a bulk copy are two built-in calls a string, which cost more than the loop for
 * strings of a record's length (a 1,000-record page at indent 2 took 1.6 ms that way, 0.75 ms so).
 * Written inline, with no helper closures: V8 ran it at a third of the speed with them.
 */
export function indentInto(pass: Indenting, json: Uint8Array, from: number, to: number): void {
  const indent = pass.indent;
  if (pass.input !== json) {
    pass.input = json;
    pass.inputWords = new DataView(json.buffer, json.byteOffset, json.byteLength);
  }
  const words = pass.inputWords as DataView;
  let out = pass.out;
  let outWords = pass.outWords;
  let at = pass.at;
  let depth = pass.depth;
  const rest = pass.rest - (to - from);
  let i = from;
  while (i < to) {
    const c = json[i++] as number;
    if (c === QUOTE) {
      out[at++] = QUOTE;
      while (i < to) {
        // Four bytes at a time: a word with no quote and no backslash is copied whole; else the
        // bytes before the first of them are (the bit trick flags a zero byte of the word XORed
        // with `"` or `\\`, and its lowest flag is exact), and that byte is read alone.
        while (i + 4 <= to) {
          const word = words.getInt32(i, true);
          const quotes = word ^ 0x22222222;
          const backslashes = word ^ 0x5c5c5c5c;
          const found = (((quotes - 0x01010101) & ~quotes) | ((backslashes - 0x01010101) & ~backslashes)) & 0x80808080;
          outWords.setInt32(at, word, true);
          if (found === 0) {
            i += 4;
            at += 4;
          } else {
            const before = (31 - Math.clz32(found & -found)) >> 3;
            i += before;
            at += before;
            break;
          }
        }
        const s = json[i++] as number;
        out[at++] = s;
        if (s === QUOTE) break;
        if (s === BACKSLASH) out[at++] = json[i++] as number;
      }
      continue;
    }
    if (c === COLON) {
      out[at++] = COLON;
      out[at++] = SPACE;
      continue;
    }
    let close = false;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const next = json[i];
      // An empty object or array stays `{}` / `[]`, as json.dumps writes it.
      if ((next === CLOSE_OBJECT || next === CLOSE_ARRAY) && i < to) {
        out[at++] = c;
        out[at++] = next;
        i++;
        continue;
      }
      depth++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      // The closing bracket goes on a line of its own, one level out.
      depth--;
      close = true;
    } else if (c !== COMMA && c !== NEWLINE) {
      out[at++] = c;
      continue;
    }
    // A line break outside strings, which compact JSON never holds, is read as a comma: a page's
    // records are fed as their chunk holds them, one a line, in one part (page-bytes.ts).
    if (!close) out[at++] = c === NEWLINE ? COMMA : c;
    const spaces = indent * depth;
    // A line break: room for it and for twice the input still to come, this part's and later ones'.
    const needed = at + 6 + spaces + 2 * (to - i + rest);
    if (needed > out.length) {
      const bigger = new Uint8Array(needed + (needed >> 1));
      bigger.set(out.subarray(0, at));
      out = bigger;
      outWords = new DataView(out.buffer);
    }
    out[at++] = NEWLINE;
    // Four spaces a write (past the line's end too, where the next bytes overwrite them): fill() is
    // a built-in call per line, and costs more than the few spaces.
    for (let k = 0; k < spaces; k += 4) outWords.setInt32(at + k, SPACES);
    at += spaces;
    if (close) out[at++] = c;
  }
  pass.out = out;
  pass.outWords = outWords;
  pass.at = at;
  pass.depth = depth;
  pass.rest = rest;
}

function escapeLineSeparators(json: string): string {
  return json.replace(LINE_SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/**
 * One subject's bytes in a page; the build serialises each record once and reuses the bytes.
 * Written out field by field (the seed's order) rather than by re-keying an object: as fast as a
 * bare JSON.stringify and independent of the order of the input object's keys.
 */
export function renderSubject(s: Subject): string {
  const q = JSON.stringify;
  const json =
    `{"id":${q(s.id)},"jedinstvena_oznaka":${q(s.jedinstvena_oznaka)},"naziv_subjekta":${q(s.naziv_subjekta)},` +
    `"oib":${q(s.oib)},"razina":${q(s.razina)},"datum_postanka":${q(s.datum_postanka)},` +
    `"status_subjekta":${q(s.status_subjekta)},"odobreno":${q(s.odobreno)},` +
    `"institucija_grad":${q(s.institucija_grad)},"institucija_email":${q(s.institucija_email)}}`;
  return HAS_LINE_SEPARATOR.test(json) ? escapeLineSeparators(json) : json;
}

/** Everything before the first record: `{"count":N,"next":...,"previous":...,"results":[`. */
export function renderPageHead(count: number, links: PageLinks): string {
  return `{"count":${count},"next":${toJson(links.next)},"previous":${toJson(links.previous)},"results":[`;
}

/** What closes every page after its records. */
export const PAGE_TAIL = "]}";
