/** The parts of the OOXML reader that the format defines by number: dates, escapes, targets, formats. */
import { describe, expect, it } from "vitest";
import { isDateFormat, resolveTarget, serialDate } from "../../../src/data/sources/read-ooxml.ts";
import { decodeXstring } from "../../../src/data/sources/xstring.ts";

describe("serialDate (ECMA-376 §18.17.4)", () => {
  it.each([
    [1, false, "1900-01-01"],
    [59, false, "1900-02-28"],
    [61, false, "1900-03-01"],
    [36526, false, "2000-01-01"],
    [44927, false, "2023-01-01"],
    [0, true, "1904-01-01"],
    [35064, true, "2000-01-01"],
  ] as const)("serial %d (1904 system: %s) -> %s", (serial, date1904, iso) => {
    expect(serialDate(serial, date1904).toISOString().slice(0, 10)).toBe(iso);
  });
  it("keeps the time of day of a fraction", () => {
    expect(serialDate(44927.5, false).toISOString()).toBe("2023-01-01T12:00:00.000Z");
  });
});

describe("isDateFormat", () => {
  it.each([
    ["yyyy-mm-dd", true],
    ["d.m.yyyy.", true],
    ['[$-41A]d"."m"."yyyy', true],
    ["hh:mm", true],
    ["0.00", false],
    ["#,##0", false],
    ["General", false],
    ['0" dana"', false],
    ["[Red]0.00;[Blue]-0.00", false],
    ["@", false],
  ] as const)("%s -> %s", (code, expected) => {
    expect(isDateFormat(code)).toBe(expected);
  });
});

describe("decodeXstring (ST_Xstring's _xHHHH_ escapes)", () => {
  it.each([
    ["a_x000D_b", "a\rb"],
    ["_x0001__x001F_", "\u0001\u001f"],
    ["_x005F_x0041_", "_x0041_"],
    ["no escapes_here", "no escapes_here"],
  ])("%j -> %j", (text, expected) => {
    expect(decodeXstring(text)).toBe(expected);
  });
});

describe("resolveTarget (OPC part names)", () => {
  it.each([
    ["xl", "worksheets/sheet1.xml", "xl/worksheets/sheet1.xml"],
    ["xl", "/xl/worksheets/sheet1.xml", "xl/worksheets/sheet1.xml"],
    ["xl", "./worksheets/../worksheets/sheet2.xml", "xl/worksheets/sheet2.xml"],
    ["", "xl/workbook.xml", "xl/workbook.xml"],
  ])("in %j, %j -> %j", (folder, target, expected) => {
    expect(resolveTarget(folder, target)).toBe(expected);
  });
});
