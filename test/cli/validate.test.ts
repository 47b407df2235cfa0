/** `subjekti validate` as a maintainer runs it: one line per problem on stderr, the exit code, nothing written. */
import { describe, expect, test } from "vitest";
import { runCli } from "../run-cli.ts";
import { BASE_SUBJECTS, fixture, writeSource } from "../data/read-subjects.ts";

/** `subjekti validate <args>`, in-process. */
function validate(...args: string[]): ReturnType<typeof runCli> {
  return runCli(["validate", ...args]);
}

describe("subjekti validate", () => {
  test("data with errors -> every problem line, the count, exit 1", async () => {
    const { code, stdout, stderr } = await validate("--data", fixture("bad-many"));
    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe(`${fixture("bad-many")}/a.json[0]: oib: expected 11 digits, got "123" (3 digits)`);
    expect(lines[5]).toBe(`${fixture("bad-many")}/c.ndjson:1: warning: institucija_grad: expected a city, got "" (published empty)`);
    expect(lines[6]).toBe("subjekti: 5 errors in the data; nothing was written");
  });

  test("the spreadsheet CSV's lost leading zero -> one summary line of its kind, exit 0; --strict refuses it, exit 1", async () => {
    const loose = await validate("--data", fixture("bad-oib-spreadsheet"));
    expect(loose.code).toBe(0);
    expect(loose.stderr).toBe(
      `${fixture("bad-oib-spreadsheet")}/subjekti.csv:6: warning: oib: 1 × an OIB without its leading zeros: expected 11 digits as text, got "2735615217" (read as "02735615217"; format the column as text to keep the zeros)\n`,
    );
    const strict = await validate("--data", fixture("bad-oib-spreadsheet"), "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(
      `${fixture("bad-oib-spreadsheet")}/subjekti.csv:6: oib: 1 × an OIB without its leading zeros: expected 11 digits as text`,
    );
  });

  test("warnings only -> the warning line and the summary, exit 0; with --strict, exit 1", async () => {
    const dir = await writeSource(
      BASE_SUBJECTS.map((s) => (s.id === 3 ? { ...s, oib: "17195049658" } : s)),
      "json",
    );
    const loose = await validate("--data", dir);
    expect(loose.code).toBe(0);
    expect(loose.stderr).toBe(
      `${dir}/subjekti.json[2]: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10), got "17195049658" (the last digit should be 9 — a typo?)\n`,
    );
    expect(loose.stdout).toBe("3 subjects in 1 file: valid (1 warning)\n");
    const strict = await validate("--data", dir, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("subjekti.json[2]: oib: expected a valid check digit");
  });

  test("--json -> the problems as JSON lines on stdout, the verdict on stderr, exit 1 on errors", async () => {
    const { code, stdout, stderr } = await validate("--data", fixture("bad-many"), "--json");
    expect(code).toBe(1);
    const problems = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { where: string; severity: string });
    expect(problems).toHaveLength(6);
    expect(problems[0]).toEqual({
      where: `${fixture("bad-many")}/a.json[0]`,
      severity: "error",
      file: `${fixture("bad-many")}/a.json`,
      index: 0,
      field: "oib",
      value: '"123"',
      expected: { key: "expected.oib" },
      hint: { key: "hint.digit-count", params: { digits: 3 } },
    });
    expect(stderr).toBe("subjekti: 5 errors in the data; nothing was written\n");
  });

  test("--all-problems -> every line of a kind, not the first five", async () => {
    const summarised = await validate("--data", "data");
    expect(summarised.stderr).toContain("… and 9 more like this: warning: oib: expected a valid check digit (ISO 7064 MOD 11,10)\n");
    const all = await validate("--data", "data", "--all-problems");
    expect(all.stderr.trimEnd().split("\n")).toHaveLength(14);
  });

  test("valid data in three formats -> the summary, exit 0", async () => {
    const { code, stdout, stderr } = await validate("--data", fixture("read-formats"));
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "3 subjects in 3 files: valid (0 warnings)\n", stderr: "" });
  });
});
