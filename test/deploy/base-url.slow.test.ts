/**
 * A base URL with a path is refused at build time, in one line, with nothing written: the hosts
 * answer the API at the root (/api/subjekti/), so a site built under /registry would link to 404s.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { FIXTURE_DATA } from "../hosts/fixture-site.ts";

let root = "";
beforeAll(async () => {
  root = await tempDir("subjekti-base-url-");
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("--base-url", () => {
  it.each(["https://example.org/registry", "https://example.org/registry/", "https://example.org/?x=1", "https://user@example.org"])(
    "%s is refused in one line, nothing written",
    async (base) => {
      const out = join(root, "refused");
      const result = await runCli(["build", "--data", FIXTURE_DATA, "--out", out, "--base-url", base, "--no-cache", "--quiet"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(
        /^subjekti: --base-url \S+: a base URL is an origin only \(such as https:\/\/example\.org\): the API answers at \/api\/subjekti\/ on every host/,
      );
      expect(existsSync(out)).toBe(false);
    },
  );

  it("an origin, with or without its slash, builds", async () => {
    for (const base of ["https://example.org", "https://example.org/"]) {
      const result = await runCli([
        "build",
        "--data",
        FIXTURE_DATA,
        "--out",
        join(root, "built"),
        "--base-url",
        base,
        "--no-cache",
        "--quiet",
      ]);
      // The fixture declares no licence: the one warning the build gives for it.
      expect({ code: result.code, stderr: result.stderr.replace(/^subjekti: warning: no licence is declared.*\n/m, "") }).toEqual({
        code: 0,
        stderr: "",
      });
    }
  });
});
