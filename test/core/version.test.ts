/** The version the CLI says is the package's. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.ts";

describe("VERSION", () => {
  it("VERSION equals package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: unknown };
    expect(VERSION).toBe(pkg.version);
  });
});
