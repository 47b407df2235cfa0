import { describe, expect, it } from "vitest";
import { DEFAULT_LIMIT, lastValue, parseQuery, readPaging, unquotePlus } from "../../src/core/request/read-query.ts";

describe("parseQuery", () => {
  it.each([
    ["'' -> no pairs", "", []],
    [
      "'a=1&b=2' -> two pairs in order",
      "a=1&b=2",
      [
        ["a", "1"],
        ["b", "2"],
      ],
    ],
    ["'&&' -> no pairs (empty pieces skipped)", "&&", []],
    ["'=x' -> empty key", "=x", [["", "x"]]],
    ["'flag' -> blank value", "flag", [["flag", ""]]],
    ["'a=1=2' -> split at the first '='", "a=1=2", [["a", "1=2"]]],
    ["'a;b=c' -> ';' is not a separator", "a;b=c", [["a;b", "c"]]],
    ["'a+b=c+d' -> '+' is a space in keys and values", "a+b=c+d", [["a b", "c d"]]],
    ["'LIMIT=5' -> keys keep their case", "LIMIT=5", [["LIMIT", "5"]]],
  ] as const)("%s", (_name, query, expected) => {
    expect(parseQuery(query)).toEqual(expected);
  });
});

describe("unquotePlus", () => {
  it.each([
    ["'+' -> ' '", "+", " "],
    ["'%20' -> ' '", "%20", " "],
    ["'%2B' -> '+'", "%2B", "+"],
    ["'%zz' -> '%zz' (malformed kept)", "%zz", "%zz"],
    ["'%' -> '%' (lone percent kept)", "%", "%"],
    ["'%4' -> '%4' (short escape kept)", "%4", "%4"],
    ["'%C4%8D' -> 'č'", "%C4%8D", "\u010d"],
    ["'%c4%8d' -> 'č' (lowercase hex)", "%c4%8d", "\u010d"],
    ["'%FF' -> U+FFFD (invalid UTF-8 replaced)", "%FF", "\ufffd"],
    ["'%C4' -> U+FFFD (truncated sequence)", "%C4", "\ufffd"],
    ["'%C4%zz%8D' -> U+FFFD '%zz' U+FFFD", "%C4%zz%8D", "\ufffd%zz\ufffd"],
    ["'%EF%BB%BF' -> U+FEFF (BOM kept)", "%EF%BB%BFa", "\ufeffa"],
    ["'%F0%9F%98%80' -> '😀'", "%F0%9F%98%80", "\u{1f600}"],
    ["'%ED%A0%80' -> three U+FFFD (encoded surrogate)", "%ED%A0%80", "\ufffd\ufffd\ufffd"],
    ["'%C4č%8D' -> raw non-ASCII splits the escapes", "%C4\u010d%8D", "\ufffd\u010d\ufffd"],
  ])("%s", (_name, input, expected) => {
    expect(unquotePlus(input)).toBe(expected);
  });
});

describe("lastValue", () => {
  it.each([
    ["absent -> undefined", "a=1", "limit", undefined],
    ["once -> that value", "limit=5", "limit", "5"],
    ["repeated -> the last", "limit=5&limit=7", "limit", "7"],
    ["repeated, last blank -> ''", "limit=5&limit", "limit", ""],
    ["case-sensitive: 'LIMIT' is not 'limit'", "LIMIT=5", "limit", undefined],
  ] as const)("%s", (_name, query, key, expected) => {
    expect(lastValue(parseQuery(query), key)).toBe(expected);
  });
});

describe("readPaging (DRF get_limit / get_offset, maxLimit 1000)", () => {
  it.each([
    ["no parameters -> limit 20, offset 0", "", DEFAULT_LIMIT, 0n],
    ["limit=5 -> 5", "limit=5", 5, 0n],
    ["limit= (blank) -> 20", "limit=", 20, 0n],
    ["limit=abc -> 20", "limit=abc", 20, 0n],
    ["limit=2.5 -> 20", "limit=2.5", 20, 0n],
    ["limit=0 -> 20", "limit=0", 20, 0n],
    ["limit=-1 -> 20", "limit=-1", 20, 0n],
    ["limit=-0 -> 20 (zero)", "limit=-0", 20, 0n],
    ["limit=1000 -> 1000", "limit=1000", 1000, 0n],
    ["limit=1001 -> 1000 (the maximum)", "limit=1001", 1000, 0n],
    ["limit=10**30 -> 1000", `limit=1${"0".repeat(30)}`, 1000, 0n],
    ["limit=1_0 -> 10", "limit=1_0", 10, 0n],
    ["limit=+%207%20 -> 7 (whitespace and sign)", "limit=+%207%20", 7, 0n],
    ["limit=%D9%A3 (Arabic-Indic 3) -> 3", "limit=%D9%A3", 3, 0n],
    ["limit=5&limit=7 -> 7 (last wins)", "limit=5&limit=7", 7, 0n],
    ["limit=5&limit=x -> 20 (last wins, even when bad)", "limit=5&limit=x", 20, 0n],
    ["offset=40 -> 40", "offset=40", 20, 40n],
    ["offset=0 -> 0", "offset=0", 20, 0n],
    ["offset=-1 -> 0", "offset=-1", 20, 0n],
    ["offset=abc -> 0", "offset=abc", 20, 0n],
    ["offset=5&offset=-1 -> 0 (last wins)", "offset=5&offset=-1", 20, 0n],
    ["offset=10**30 -> 10**30 exactly", `offset=1${"0".repeat(30)}`, 20, 10n ** 30n],
    ["Offset=7&LIMIT=5 -> defaults (case-sensitive keys)", "Offset=7&LIMIT=5", 20, 0n],
    ["%6Cimit=5 -> 5 (the key is decoded first)", "%6Cimit=5", 5, 0n],
  ])("%s", (_name, query, limit, offset) => {
    expect(readPaging(parseQuery(query), 1000)).toEqual({ limit, offset });
  });

  it.each([
    ["maxLimit 50, limit=60 -> 50", "limit=60", 50, 50],
    ["maxLimit 10, no limit -> 20 (DRF does not cap the default)", "", 10, 20],
  ])("%s", (_name, query, maxLimit, limit) => {
    expect(readPaging(parseQuery(query), maxLimit).limit).toBe(limit);
  });
});
