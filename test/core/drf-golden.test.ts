/**
 * The core against the real Django REST Framework: golden/drf-answers.json is what DRF 3.14 on
 * Django 3.2 (Debian's packages) computed (test/oracle/drf-golden.py). The whole answers are checked
 * on every host by the request table; here, content negotiation case by case.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { negotiate } from "../../src/core/request/negotiate.ts";

interface DrfGolden {
  readonly drf: string;
  readonly django: string;
  readonly accept: readonly { readonly accept: string; readonly acceptable: boolean; readonly indent: number | null }[];
}

const golden = JSON.parse(readFileSync(new URL("./golden/drf-answers.json", import.meta.url), "utf8")) as DrfGolden;

describe(`negotiate as DRF ${golden.drf} (Django ${golden.django}) selects JSONRenderer and its indent`, () => {
  // A blank header is the one deliberate difference: answered as absent (docs/http-contract.md, "Choices").
  const cases = golden.accept.filter((c) => c.accept.trim() !== "");
  it.each(cases.map((c) => [JSON.stringify(c.accept), c.acceptable ? `indent ${c.indent ?? 0}` : "406", c] as const))(
    "Accept %s -> %s",
    (_name, _expected, c) => {
      expect(negotiate(c.accept)).toBe(c.acceptable ? (c.indent ?? 0) : null);
    },
  );

  it("a blank header is taken as absent, where DRF answers 406", () => {
    expect(golden.accept.filter((c) => c.accept.trim() === "").map((c) => c.acceptable)).toEqual([false, false]);
    expect([negotiate(""), negotiate(" ")]).toEqual([0, 0]);
  });
});
