/**
 * isErrno (common/machine-error.ts): an operating system error is an Error with a string code; given
 * a code, it is that code's error alone (where a missing file is expected, every other error is thrown on).
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { isErrno } from "../../src/common/machine-error.ts";

/** The error of an lstat of a path that does not exist: ENOENT. */
function missing(): unknown {
  try {
    lstatSync(join(tmpdir(), "subjekti-is-errno-none", "none"));
  } catch (error) {
    return error;
  }
  throw new Error("the missing path exists");
}

describe("isErrno", () => {
  it("is an Error with a string code, whatever the code", () => {
    expect(isErrno(missing())).toBe(true);
    expect(isErrno(Object.assign(new Error("x"), { code: "EACCES" }))).toBe(true);
    expect(isErrno(new Error("no code"))).toBe(false);
    expect(isErrno(Object.assign(new Error("x"), { code: 2 }))).toBe(false);
    expect(isErrno({ code: "ENOENT" })).toBe(false);
    expect(isErrno(undefined)).toBe(false);
  });

  it("given a code, is that code's error alone", () => {
    expect(isErrno(missing(), "ENOENT")).toBe(true);
    expect(isErrno(missing(), "EACCES")).toBe(false);
    expect(isErrno(Object.assign(new Error("x"), { code: "EACCES" }), "ENOENT")).toBe(false);
    expect(isErrno(new Error("no code"), "ENOENT")).toBe(false);
    expect(isErrno({ code: "ENOENT" }, "ENOENT")).toBe(false);
  });

  it("narrows to an ErrnoException where it holds", () => {
    const error = missing();
    expect(isErrno(error, "ENOENT") ? error.code : "not one").toBe("ENOENT");
  });
});
