/** Many problems of one kind: the first few lines, `… and N more like this`, a table of kinds; every line on request; JSON lines for tools. */
import { describe, expect, test } from "vitest";
import type { Problem } from "../../../src/data/problems/problems.ts";
import { problemsAsJsonLines, summariseProblems } from "../../../src/data/problems/summarise-problems.ts";
import { msg } from "../../../src/common/messages/message.ts";

const zeroLost = (line: number): Problem => ({
  severity: "error",
  file: "data/s.csv",
  line,
  field: "oib",
  value: '"123"',
  expected: msg("expected.oib"),
  hint: msg("hint.digit-count", { digits: 3 }),
});
const noCity = (index: number): Problem => ({
  severity: "warning",
  file: "data/s.json",
  index,
  field: "institucija_grad",
  value: '""',
  expected: msg("expected.city"),
  hint: msg("hint.published-empty"),
});

describe("summariseProblems", () => {
  test("5,758 of one kind and 2 of another -> 5 lines, '… and 5,753 more like this', the 2 lines, then the table of kinds", () => {
    const problems = [...Array.from({ length: 5758 }, (_, i) => zeroLost(i + 2)), noCity(3), noCity(9)];
    expect(summariseProblems(problems)).toEqual([
      'data/s.csv:2: oib: expected 11 digits, got "123" (3 digits)',
      'data/s.csv:3: oib: expected 11 digits, got "123" (3 digits)',
      'data/s.csv:4: oib: expected 11 digits, got "123" (3 digits)',
      'data/s.csv:5: oib: expected 11 digits, got "123" (3 digits)',
      'data/s.csv:6: oib: expected 11 digits, got "123" (3 digits)',
      "… and 5,753 more like this: oib: expected 11 digits",
      'data/s.json[3]: warning: institucija_grad: expected a city, got "" (published empty)',
      'data/s.json[9]: warning: institucija_grad: expected a city, got "" (published empty)',
      "problems by kind:",
      "  5,758  error    oib               expected 11 digits",
      "      2  warning  institucija_grad  expected a city",
    ]);
  });

  test("a few problems of each kind -> one line each, no table", () => {
    expect(summariseProblems([zeroLost(2), noCity(1)])).toEqual([
      'data/s.csv:2: oib: expected 11 digits, got "123" (3 digits)',
      'data/s.json[1]: warning: institucija_grad: expected a city, got "" (published empty)',
    ]);
  });

  test("only the first few kept (a bounded collector) with the kind's exact count -> the count of the rest from it", () => {
    const kept = Array.from({ length: 5 }, (_, i) => zeroLost(i + 2));
    const lines = summariseProblems(kept, { countOf: (p) => (p.field === "oib" ? 1_000_000 : undefined) });
    expect(lines.slice(5)).toEqual([
      "… and 999,995 more like this: oib: expected 11 digits",
      "problems by kind:",
      "  1,000,000  error  oib  expected 11 digits",
    ]);
  });

  test("--all-problems -> every line", () => {
    expect(
      summariseProblems(
        Array.from({ length: 12 }, (_, i) => zeroLost(i + 2)),
        { all: true },
      ),
    ).toHaveLength(12);
  });

  test("JSON lines carry every part of a problem and where it is", () => {
    expect(problemsAsJsonLines([zeroLost(7)])).toEqual([
      '{"where":"data/s.csv:7","severity":"error","file":"data/s.csv","line":7,"field":"oib","value":"\\"123\\"","expected":{"key":"expected.oib"},"hint":{"key":"hint.digit-count","params":{"digits":3}}}',
    ]);
  });
});
