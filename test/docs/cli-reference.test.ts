/**
 * docs/cli.md is what `npm run docs:cli` generates from the CLI's own `--help` now: a changed help
 * text, option or command fails here until the reference is generated again.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { cliReference, commandNames } from "../../scripts/cli-reference.ts";

describe("the CLI reference (docs/cli.md)", () => {
  it("is what the CLI's --help of every command gives now (else: npm run docs:cli)", async () => {
    const written = await readFile("docs/cli.md", "utf8");
    expect(written, "docs/cli.md is out of date: run `npm run docs:cli`").toBe(await cliReference());
  });

  it("takes the commands from the top-level help, help itself aside", () => {
    const top = [
      "Usage: subjekti [options] [command]",
      "",
      "Options:",
      "  -h, --help   display help",
      "",
      "Commands:",
      "  build [options]   validate",
      "                    and wrap",
      "  check [options] <url>  verify",
      "  help [command]    display help",
      "",
    ].join("\n");
    expect(commandNames(top)).toEqual(["build", "check"]);
  });
});
