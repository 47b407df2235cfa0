/** The `subjekti` command line: commander wiring only; every stage lives in src/build and src/serve. */
import { Command, InvalidArgumentError, Option } from "commander";
import { isForm, type Form } from "./core/layout.ts";
import { VERSION } from "./core/version.ts";
import { type BuildOptions, DEFAULT_OPTIONS, defaultBaseUrl } from "./build/build-options.ts";
import { buildSite } from "./build/build-site.ts";
import { loadMetadata } from "./build/dataset-metadata.ts";
import { isEncodingLabel } from "./build/decode-source.ts";
import { DataError, kindKey, type Problem, type ProblemKind, SubjektiError } from "./build/problems.ts";
import { readRecords } from "./build/read-subjects.ts";
import { problemsAsJsonLines, summariseProblems } from "./build/summarise-problems.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "./build/validate-subject.ts";
import { startPreview } from "./serve/preview-server.ts";

function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${text}"`);
  return n;
}

function limitList(text: string): number[] {
  const limits = [...new Set(text.split(",").map((part) => positiveInt(part.trim())))];
  return limits.sort((a, b) => a - b);
}

function formList(text: string): Form[] {
  const forms = text.split(",").map((part) => part.trim());
  const bad = forms.find((form) => !isForm(form));
  if (bad !== undefined) throw new InvalidArgumentError(`"${bad}" is not a form; the forms are plain, api and json`);
  return [...new Set(forms)] as Form[];
}

function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`expected an absolute URL such as https://example.org, got "${text}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidArgumentError(`expected http or https, got "${text}"`);
  // DRF's links are the origin plus the path; a trailing slash would double it.
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}

function encodingLabel(text: string): string {
  if (!isEncodingLabel(text)) throw new InvalidArgumentError(`"${text}" is not an encoding label (such as utf-8 or windows-1250)`);
  return text;
}

/** How problems are printed: grouped by kind (default), every line, or JSON lines on stdout (set by the command run). */
const problemOutput = { all: false, json: false };

/** The problems kept (the first few of each kind, `kinds` counting them all), summarised by kind; or as JSON lines. */
function printProblems(problems: readonly Problem[], kinds: readonly ProblemKind[]): void {
  if (problemOutput.json) {
    for (const line of problemsAsJsonLines(problems)) process.stdout.write(`${line}\n`);
    return;
  }
  const counts = new Map(kinds.map((k) => [k.key, k.count]));
  const lines = summariseProblems(problems, { all: problemOutput.all, countOf: (p) => counts.get(kindKey(p)) });
  for (const line of lines) process.stderr.write(`${line}\n`);
}

const MAX_FIELD_LENGTH_HELP = `the longest a text field may be, in characters (default: ${DEFAULT_MAX_FIELD_LENGTH})`;
const FOLLOW_OUTSIDE_HELP = "follow symbolic links that lead outside --data (default: skip them, with a warning)";

const program = new Command("subjekti")
  .description("The Registry of Subjects as a static JSON API")
  .version(VERSION)
  .showHelpAfterError();

program
  .command("build")
  .description("validate data/ and pre-render the site into dist/")
  .option("--data <dir>", "the source data directory (*.json, *.ndjson, *.csv, *.xlsx)", DEFAULT_OPTIONS.dataDir)
  .option("--out <dir>", "the site directory", DEFAULT_OPTIONS.outDir)
  .option("--limits <list>", "page sizes pre-rendered as files, comma-separated", limitList, [...DEFAULT_OPTIONS.limits])
  .option("--forms <list>", "forms of ?format pre-rendered: plain, api, json", formList, [...DEFAULT_OPTIONS.forms])
  .option("--max-limit <n>", "the largest page size a request gets", positiveInt, DEFAULT_OPTIONS.maxLimit)
  .addOption(
    new Option("--base-url <url>", "the public origin in links (default on Netlify: $URL in production, $DEPLOY_PRIME_URL in other contexts; else http://localhost:8080)").argParser(baseUrl),
  )
  .option("--cache-control <value>", "the Cache-Control header of every answer", DEFAULT_OPTIONS.cacheControl)
  .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
  .option("--encoding <label>", "the encoding of CSV sources, such as windows-1250 (default: UTF-8)", encodingLabel)
  .option("--all-problems", "print every problem, not the first few of each kind", false)
  .option("-q, --quiet", "no progress bar", false)
  .option("--cache-dir <dir>", "where the build cache is kept: a rebuild re-reads only the changed records", DEFAULT_OPTIONS.cacheDir)
  .option("--no-cache", "read every record, and keep no build cache")
  .option("--json", "print one JSON report (counts, warnings, timings, the URLs and cache tags that changed) instead of the summary", false)
  .option("--threads <n>", "threads that parse and render JSON arrays (default: one per core for large inputs; 0: none)", (text) => (text === "0" ? 0 : positiveInt(text)))
  .option("--max-field-length <n>", MAX_FIELD_LENGTH_HELP, positiveInt, DEFAULT_MAX_FIELD_LENGTH)
  .option("--follow-outside", FOLLOW_OUTSIDE_HELP, false)
  .action(async (flags) => {
    const { cache, cacheDir, threads, encoding, json, ...rest } = flags;
    const { allProblems } = flags;
    problemOutput.all = allProblems;
    // With --json a build that fails prints its problems as JSON lines on stdout, as validate --json does.
    problemOutput.json = json === true;
    const options: BuildOptions = {
      ...rest,
      dataDir: flags.data,
      outDir: flags.out,
      baseUrl: flags.baseUrl ?? baseUrl(defaultBaseUrl(process.env)),
      cacheDir: cache === false ? null : cacheDir,
      threads: threads ?? "auto",
      ...(encoding === undefined ? {} : { encoding }),
    };
    const { jsonReport, printBuildReport, progressBar } = await import("./build/build-report.ts");
    const bar = options.quiet ? undefined : progressBar(process.stderr);
    const report = await buildSite(options, bar?.update);
    bar?.done();
    if (json === true) {
      // stdout holds the report alone, so it can be piped to a parser; the warnings are in it.
      process.stdout.write(jsonReport(report, options));
      return;
    }
    printProblems(report.warnings, report.kinds);
    printBuildReport(report, options, process.stdout);
  });

program
  .command("validate")
  .description("check data/ against every rule and report every problem; writes nothing")
  .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
  .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
  .option("--encoding <label>", "the encoding of CSV sources, such as windows-1250 (default: UTF-8)", encodingLabel)
  .option("--all-problems", "print every problem kept, not the first few of each kind", false)
  .option("--json", "print the problems as JSON lines on stdout, for tools", false)
  .option("--max-field-length <n>", MAX_FIELD_LENGTH_HELP, positiveInt, DEFAULT_MAX_FIELD_LENGTH)
  .option("--follow-outside", FOLLOW_OUTSIDE_HELP, false)
  .action(async (flags) => {
    problemOutput.all = flags.allProblems;
    problemOutput.json = flags.json;
    await loadMetadata(flags.data);
    // The records as a build reads them (threads for large inputs), not parsed back into objects.
    const read = { dataDir: flags.data, strict: flags.strict, maxFieldLength: flags.maxFieldLength, followOutside: flags.followOutside };
    const result = await readRecords({ ...read, allProblems: flags.allProblems, ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }) });
    printProblems(result.warnings, result.kinds);
    const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
    let warnings = 0;
    for (const kind of result.kinds) warnings += kind.count;
    const verdict = `${count(result.count, "subject")} in ${count(result.files.length, "file")}: valid (${count(warnings, "warning")})\n`;
    (flags.json ? process.stderr : process.stdout).write(verdict);
  });

program
  .command("export")
  .description("write the validated records as a spreadsheet to edit: .xlsx (OIB and code as text cells) or CSV (UTF-8 with BOM, ;)")
  .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
  .addOption(new Option("--format <format>", "xlsx or csv (default: from the --out extension)").choices(["xlsx", "csv"]))
  .requiredOption("--out <file>", "the file to write")
  .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
  .option("--encoding <label>", "the encoding of CSV sources, such as windows-1250 (default: UTF-8)", encodingLabel)
  .option("--all-problems", "print every problem, not the first few of each kind", false)
  .action(async (flags) => {
    problemOutput.all = flags.allProblems;
    const { exportRecords } = await import("./build/export-records.ts");
    const format = flags.format ?? (/\.csv$/i.test(flags.out) ? "csv" : "xlsx");
    const report = await exportRecords({ dataDir: flags.data, strict: flags.strict, allProblems: flags.allProblems, format, out: flags.out, ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }) });
    printProblems(report.warnings, report.kinds);
    process.stdout.write(`exported ${report.count} subjects to ${flags.out} (${format})\n`);
  });

program
  .command("preview")
  .description("serve dist/ locally, routed exactly as the Netlify edge routes it")
  .option("--dir <dir>", "the built site", DEFAULT_OPTIONS.outDir)
  .option("--port <n>", "the port", positiveInt, 8080)
  .option("--host <host>", "the address to listen on", "127.0.0.1")
  .action(async (flags) => {
    const preview = await startPreview({ dir: flags.dir, port: flags.port, host: flags.host });
    process.stdout.write(`subjekti preview: ${preview.url} (Ctrl-C stops)\n`);
    const stop = (): void => {
      void preview.close().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof DataError) {
    printProblems(error.problems, error.kinds);
    process.stderr.write(`subjekti: ${error.message}\n`);
    process.exitCode = 1;
  } else if (error instanceof SubjektiError) {
    process.stderr.write(`subjekti: ${error.message}\n`);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
