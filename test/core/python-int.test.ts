import { describe, expect, it } from "vitest";
import { MAX_INT_DIGITS, parsePythonInt } from "../../src/core/request/python-int.ts";

describe("parsePythonInt", () => {
  it.each([
    ["'5'", "5", 5n],
    ["'-0'", "-0", 0n],
    ["'+7'", "+7", 7n],
    ["'007' (leading zeros)", "007", 7n],
    ["'1_0' (underscore between digits)", "1_0", 10n],
    ["'1__0' (double underscore)", "1__0", null],
    ["'_1' (leading underscore)", "_1", null],
    ["'1_' (trailing underscore)", "1_", null],
    ["'2.5'", "2.5", null],
    ["'1e1'", "1e1", null],
    ["'0x10'", "0x10", null],
    ["'' (empty)", "", null],
    ["'abc'", "abc", null],
    ["'- 5' (space after the sign)", "- 5", null],
    ["' \\t5\\n ' (ASCII whitespace)", " \t5\n ", 5n],
    ["'\\xa05\\u3000' (Unicode whitespace)", "\xa05\u3000", 5n],
    ["'\\x855' (NEL)", "\x855", 5n],
    ["'\\ufeff5' (BOM is not whitespace)", "\ufeff5", null],
    ["'\\u200b5' (zero-width space is not whitespace)", "\u200b5", null],
    ["'٣' (Arabic-Indic three)", "\u0663", 3n],
    ["'१२' (Devanagari twelve)", "\u0967\u0968", 12n],
    ["'𝟗' (mathematical bold nine, astral)", "\u{1d7d7}", 9n],
    ["'０' (fullwidth zero)", "\uff10", 0n],
    ["'1٣' (mixed scripts)", "1\u0663", 13n],
    ["'²' (superscript two is not decimal)", "\u00b2", null],
    ["'Ⅻ' (roman numeral is not decimal)", "\u216b", null],
    [`'1' x ${MAX_INT_DIGITS} (at the limit)`, "1".repeat(MAX_INT_DIGITS), BigInt("1".repeat(MAX_INT_DIGITS))],
    [`'1' x ${MAX_INT_DIGITS + 1} (over the limit)`, "1".repeat(MAX_INT_DIGITS + 1), null],
    ["4300 zeros then 1 (leading zeros count toward the limit)", "0".repeat(4300) + "1", null],
    ["'1_' x 4299 + '1' (underscores do not count)", "1_".repeat(4299) + "1", BigInt("1".repeat(4300))],
    ["10**30 as digits", "1" + "0".repeat(30), 10n ** 30n],
  ] as const)("%s -> %s", (_name, input, expected) => {
    expect(parsePythonInt(input)).toBe(expected);
  });

  // Regression: \x1c-\x1f satisfy str.isspace() but not the C isspace() that int() skips with.
  it.each(["\x1c5", "5\x1c", "\x1d5", "\x1e5", "\x1f5"])("%j (information separator) -> null, not 5", (input) => {
    expect(parsePythonInt(input)).toBeNull();
  });

  // Regression: Node 20 (Unicode 15+) has digits CPython 3.11 (Unicode 14) does not read.
  it.each([
    ["Kawi digit three U+11F53", "\u{11f53}"],
    ["Nag Mundari digit three U+1E4F3", "\u{1e4f3}"],
  ])("%s (newer than Unicode 14) -> null", (_name, input) => {
    expect(parsePythonInt(input)).toBeNull();
  });
});
