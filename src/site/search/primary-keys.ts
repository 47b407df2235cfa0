/**
 * A text's primary key: a byte a letter of the collation (`Intl.Collator("hr")`) at its primary
 * strength, its class among the letters of Latin texts, written as a one-byte string. Where two
 * texts both have a key and the keys differ, the keys' order as plain text is the collation's
 * order of the texts (the primary level decides before any other), so the external sort
 * (sorted-runs.ts) orders them with no call to the collator; equal keys (texts that differ in case
 * or accents only) and texts with no key are left to the collation.
 *
 * That holds only where each letter is one primary weight of its own and the table knows every
 * letter made of two characters: Croatian's `lj`, `nj` and `dž` (in their cases) are one letter
 * each, sorted after `l`, `n` and `d`. The table finds them, and whatever does not fit, from the
 * collator itself when it is made: a pair of characters is one letter where it does not sort
 * between its first character alone and that character followed by the last letter; a character
 * or pair is left out (the text then has no key) where the collator finds it ignorable, or where
 * it does not sort after every lower letter followed by the last letter three times (an expansion
 * whose first weight is another letter's, as `ß` is `ss`).
 */

/** The class of a character with no key (and of every character outside the table). */
export const NO_CLASS = 255;

const PRIMARY = new Intl.Collator("hr", { sensitivity: "base" });

/** The characters ordered: ASCII, Latin-1, Latin Extended-A, the quotes and dashes of U+2010 to U+2027. */
const RANGES = [
  [0x20, 0x7e],
  [0xa0, 0x17f],
  [0x2010, 0x2027],
] as const;

interface Table {
  /** Each code unit's class (NO_CLASS where it has none). */
  readonly unit: Uint8Array;
  /** 1 for a code unit that begins a letter of two (`opens`), its classes by the pair's two units (`first << 16 | second`). */
  readonly opens: Uint8Array;
  readonly pairs: Map<number, number>;
}

let TABLE: Table | undefined;

/**
 * Writes `value`'s classes into `out` from `from` (it must hold `value.length` bytes there); answers
 * how many, or -1 - how many where a character has no class (NO_CLASS written for it): the value
 * has no key.
 */
export function writeClasses(value: string, out: Uint8Array, from = 0): number {
  const { unit, opens, pairs } = TABLE ?? (TABLE = table());
  let at = from;
  let keyed = true;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (opens[code] === 1 && i + 1 < value.length) {
      const pair = pairs.get((code << 16) | value.charCodeAt(i + 1));
      if (pair !== undefined) {
        if (pair === NO_CLASS) keyed = false;
        out[at++] = pair;
        i++;
        continue;
      }
    }
    const klass = unit[code] as number;
    if (klass === NO_CLASS) keyed = false;
    out[at++] = klass;
  }
  return keyed ? at - from : -1 - (at - from);
}

let BUFFER = Buffer.allocUnsafe(256);

/** `value`'s primary key, or undefined where it has none. */
export function primaryKey(value: string): string | undefined {
  if (value.length > BUFFER.length) BUFFER = Buffer.allocUnsafe(2 * value.length);
  const n = writeClasses(value, BUFFER);
  return n < 0 ? undefined : BUFFER.toString("latin1", 0, n);
}

/** The table, asked of the collator (some 300,000 comparisons, once a thread). */
function table(): Table {
  const chars: string[] = [];
  for (const [first, last] of RANGES) for (let code = first; code <= last; code++) chars.push(String.fromCharCode(code));
  const kept = chars.filter((char) => PRIMARY.compare(char, "") !== 0);
  kept.sort(PRIMARY.compare);
  const highest = kept[kept.length - 1] as string;
  // Pairs that are one letter: not between their first character and it followed by the highest letter.
  const letters = [...kept];
  for (const first of kept)
    for (const second of kept) {
      const pair = first + second;
      if (!(PRIMARY.compare(pair, first) > 0 && PRIMARY.compare(pair, first + highest) <= 0)) letters.push(pair);
    }
  letters.sort(PRIMARY.compare);
  const classOf = new Map<string, number>();
  let klass = 1;
  for (let i = 0; i < letters.length; i++) {
    if (i > 0 && PRIMARY.compare(letters[i - 1] as string, letters[i] as string) !== 0) klass++;
    classOf.set(letters[i] as string, klass);
  }
  // Left out: a letter that does not sort after every lower one followed by the highest three times.
  const out = new Set<string>();
  if (klass >= NO_CLASS) for (const [letter, k] of classOf) if (k >= NO_CLASS) out.add(letter);
  const top = highest.repeat(3);
  for (const low of letters)
    for (const high of letters)
      if ((classOf.get(low) as number) < (classOf.get(high) as number) && !(PRIMARY.compare(low + top, high) < 0)) out.add(high);
  const unit = new Uint8Array(0x10000).fill(NO_CLASS);
  const opens = new Uint8Array(0x10000);
  const pairs = new Map<number, number>();
  for (const [letter, k] of classOf) {
    const value = out.has(letter) ? NO_CLASS : k;
    if (letter.length === 1) unit[letter.charCodeAt(0)] = value;
    else {
      opens[letter.charCodeAt(0)] = 1;
      pairs.set((letter.charCodeAt(0) << 16) | letter.charCodeAt(1), value);
    }
  }
  return { unit, opens, pairs };
}
