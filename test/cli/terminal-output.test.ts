/**
 * What the CLI prints for a person holds no control or bidi character from a value: a data value
 * in a problem line, and a checked server's answer in check's report, are shown with `\u202e`.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { buildFixture, FIXTURE_DATA } from "../hosts/fixture-site.ts";

/** Any raw control (but the newline that ends a line) or bidi character. */
const RAW_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const HOSTILE = "\u202eevil\x1b[2J\x85\u2066";

let root: string;
beforeAll(async () => {
  root = await tempDir("subjekti-terminal-");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("terminal output escapes control and bidi characters", () => {
  it("validate: a value with U+202E, an escape sequence, NEL and an isolate -> shown as \\u202e, \\u001b, \\u0085, \\u2066", async () => {
    const records = JSON.parse(await readFile(join(FIXTURE_DATA, "subjekti.json"), "utf8")) as Record<string, unknown>[];
    const data = join(root, "data");
    await mkdir(data);
    await writeFile(
      join(data, "subjekti.json"),
      JSON.stringify(records.map((record, i) => (i === 0 ? { ...record, oib: `1${HOSTILE}` } : record))),
    );
    for (const args of [[], ["--json"]]) {
      const run = await runCli(["validate", "--data", data, ...args]);
      expect(run.code).toBe(1);
      const printed = `${run.stdout}${run.stderr}`;
      expect(printed).not.toMatch(RAW_UNSAFE);
      // In JSON lines the value's own JSON escapes are escaped once more.
      expect(printed).toContain(args.length === 0 ? "\\u202eevil\\u001b[2J\\u0085\\u2066" : "\\u202eevil\\\\u001b[2J\\u0085\\u2066");
    }
  });

  it("check: a server whose body holds U+202E and C1 controls -> the report shows them escaped, in text and JSON", async () => {
    const site = await buildFixture();
    const server = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(`{"detail":"${HOSTILE}"}`);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const args of [[], ["--json"]]) {
        const run = await runCli(["check", url, "--dir", site.dir, "--quiet", "--sample", "1", ...args]);
        expect(run.code).toBe(1);
        expect(run.stdout).not.toMatch(RAW_UNSAFE);
        expect(run.stdout).toContain("\\u202eevil");
      }
    } finally {
      server.close();
      await site.remove();
    }
  });
});
