/** Names, towns and terms in the form PostgreSQL compares them (`UPPER(UNACCENT(…))`), and the sets the search combines. */
import { describe, expect, it } from "vitest";
import { isTokenBreak, searchForm, termText, tokensOf, unaccent } from "../../../src/core/search/normalise.ts";
import { decodeRows, encodeRows, intersect, RowUnion, selectRows, toList } from "../../../src/core/search/row-sets.ts";
import { UNACCENT_RULES } from "../../../src/core/search/unaccent-table.ts";

describe("searchForm", () => {
  it.each([
    ["Đakovo", "DAKOVO"],
    ["Škola ćevapa", "SKOLA CEVAPA"],
    ["Straße", "STRASSE"],
    ["ǅ ﬁ ŉ", "DZ FI 'N"],
    ["a¼b", "A1/4B"],
    ["x\u0301y", "XY"],
  ])("%j -> %j (checked on PostgreSQL 15)", (text, form) => {
    expect(searchForm(text)).toBe(form);
  });

  it("keeps %, _ and \\ literal, even made of fullwidth ％ ＿ ＼", () => {
    expect(termText("％a")).toBe("%A");
    expect(termText("＿")).toBe("_");
  });

  it("no rule makes whitespace, so a term is always inside one token", () => {
    for (const line of UNACCENT_RULES.split("\n")) {
      const target = line.split("\t")[1] ?? "";
      for (const c of target.toUpperCase()) expect(isTokenBreak(c.charCodeAt(0))).toBe(false);
    }
  });

  it("unaccent leaves ASCII alone", () => {
    expect(unaccent("Zagreb 1/2 %_\\")).toBe("Zagreb 1/2 %_\\");
  });

  it("tokensOf splits at Python's whitespace, each token once", () => {
    expect(tokensOf("OSNOVNA SKOLA\u00a0SKOLA\tX")).toEqual(["OSNOVNA", "SKOLA", "X"]);
  });
});

describe("row sets", () => {
  const count = 1000;
  const small = [3, 7, 500, 999];
  const large = Array.from({ length: 400 }, (_, i) => i * 2 + 1);
  it("encode and decode: a list when small, a bitmap when large", () => {
    expect(toList(decodeRows(encodeRows(small, count)))).toEqual(Uint32Array.from(small));
    expect(decodeRows(encodeRows(large, count)).kind).toBe("bits");
    expect(toList(decodeRows(encodeRows(large, count)))).toEqual(Uint32Array.from(large));
  });
  it("intersect, unite and select agree with plain arrays", () => {
    const a = decodeRows(encodeRows(small, count));
    const b = decodeRows(encodeRows(large, count));
    expect([...toList(intersect(a, b))]).toEqual([3, 7]);
    expect([...toList(intersect(b, b))]).toEqual(large);
    const union = new RowUnion(count);
    union.add(a);
    union.add(b);
    expect([...toList(union.result())]).toEqual([...new Set([...small, ...large])].sort((x, y) => x - y));
    expect(selectRows(b, 10, 3)).toEqual([21, 23, 25]);
    expect(selectRows(a, 3, 5)).toEqual([999]);
  });
});
