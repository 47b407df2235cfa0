import { describe, expect, it } from "vitest";
import { escapeTerminal } from "../../src/common/terminal-text.ts";

describe("escapeTerminal: control and bidi characters as \\uXXXX", () => {
  it.each([
    ["RIGHT-TO-LEFT OVERRIDE", "a\u202eb", "a\\u202eb"],
    ["an ANSI escape sequence", "\x1b[31mred", "\\u001b[31mred"],
    ["a carriage return that would hide the line's start", "ok\rFAKE", "ok\\u000dFAKE"],
    ["C1 controls (NEL, CSI)", "\x85\x9b", "\\u0085\\u009b"],
    ["DEL", "\x7f", "\\u007f"],
    ["the isolates and marks", "\u2066\u2067\u2068\u2069\u200e\u200f\u061c", "\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c"],
    ["line and paragraph separators", "\u2028\u2029", "\\u2028\\u2029"],
    ["letters, diacritics, emoji and tabs' neighbours untouched", "Čakovec ž 🌊 ~", "Čakovec ž 🌊 ~"],
  ])("%s", (_name, text, escaped) => {
    expect(escapeTerminal(text)).toBe(escaped);
  });

  it("a JSON line stays JSON with the same value", () => {
    const value = { naziv: "a\u202e\x85\u2066b", n: 1 };
    expect(JSON.parse(escapeTerminal(JSON.stringify(value)))).toEqual(value);
  });
});
