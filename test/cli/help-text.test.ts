/**
 * The help snapshot bin/subjekti.js answers `--help` and `--version` from (src/cli/help-text.ts)
 * is commander's own output: a changed command summary, option or version fails here until
 * `npm run help-text` writes it again.
 */
import { describe, expect, it } from "vitest";
import { HELP, VERSION } from "../../src/cli/help-text.ts";
import { runCli } from "../run-cli.ts";

describe("the help snapshot", () => {
  it("is what commander prints for --help, -h and help", async () => {
    for (const args of [["--help"], ["-h"], ["help"]]) {
      const run = await runCli(args);
      expect(run.code, args[0]).toBe(0);
      expect(HELP, `${args[0]}: run npm run help-text`).toBe(run.stdout);
    }
  });

  it("holds the version commander prints", async () => {
    expect(`${VERSION}\n`).toBe((await runCli(["--version"])).stdout);
  });
});
