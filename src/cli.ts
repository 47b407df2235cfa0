/**
 * The `subjekti` command line: `main(argv, io)` returns the exit code; bin/subjekti.js calls it
 * with the process's own argv, streams and environment, tests call it in-process. Options are
 * parsed into typed values here, at the boundary; every stage lives in src/site and src/serve.
 *
 * Exit codes: 0 done, 1 bad data or an environment problem (one line, with what to do), 2 a usage
 * error (commander's message and the help hint).
 */
import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { isForm, type Form } from "./core/layout.ts";
import { SubjektiError } from "./core/subjekti-error.ts";
import { VERSION } from "./core/version.ts";
import { addNginxCommand } from "./nginx/nginx-command.ts";
import { allowedHostList, DEFAULT_HOST, envPort, port } from "./serve/listen-options.ts";
import { addServeCommand } from "./serve/serve-command.ts";
import { type BuildOptions, DEFAULT_OPTIONS, defaultBaseUrl } from "./site/build-options.ts";
import { type Target, TARGETS } from "./site/deploy-preflight.ts";
import type { LinkKind } from "./site/site-shape.ts";
import { isEncodingLabel } from "./site/decode-source.ts";
import { DataError, kindKey, type Problem, type ProblemKind } from "./site/problems.ts";
import { problemsAsJsonLines, summariseProblems } from "./site/summarise-problems.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "./site/validate-subject.ts";
import { type Io, processIo } from "./cli-io.ts";

export { type Io, processIo } from "./cli-io.ts";

const DEFAULT_PORT = 8080;
const MAX_FIELD_LENGTH_HELP = "the longest a text field may be, in characters";
const FOLLOW_OUTSIDE_HELP = "follow symbolic links that lead outside --data (default: skip them, with a warning)";
const ENCODING_HELP = "the encoding of CSV sources, such as windows-1250 (default: UTF-8)";

function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`expected a positive integer, got "${text}"`);
  return n;
}

function encodingLabel(text: string): string {
  if (!isEncodingLabel(text)) throw new InvalidArgumentError(`"${text}" is not an encoding label (such as utf-8 or windows-1250)`);
  return text;
}

function threadCount(text: string): number {
  return text === "0" ? 0 : positiveInt(text);
}

/** `host:port` (`[::1]:8080` for IPv6), as curl's --connect-to names an address. */
function connectTo(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(":");
  const host = text.slice(0, Math.max(colon, 0)).replace(/^\[(.*)\]$/, "$1");
  if (colon < 0 || host === "") throw new InvalidArgumentError(`expected host:port, such as 127.0.0.1:8080, got "${text}"`);
  return { host, port: port(text.slice(colon + 1)) };
}

function limitList(text: string): number[] {
  // No page pre-rendered: every request derived from the record chunks.
  if (text.trim() === "none") return [];
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

/** The build command's flags as commander gives them. */
interface BuildFlags {
  readonly data: string;
  readonly out: string;
  readonly limits: number[];
  readonly forms: Form[];
  readonly maxLimit: number;
  readonly baseUrl?: string;
  readonly cacheControl: string;
  readonly strict: boolean;
  readonly quiet: boolean;
  readonly cacheDir: string;
  readonly cache: boolean;
  readonly threads?: number;
  readonly maxFieldLength: number;
  readonly followOutside: boolean;
  readonly encoding?: string;
  readonly allProblems: boolean;
  readonly json: boolean;
  readonly links: LinkKind;
  readonly target?: Target;
  readonly overLimits: "refuse" | "warn";
}

/** The options of every command that reads the sources the way a build does. */
function withReadOptions(command: Command): Command {
  return command
    .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
    .option("--encoding <label>", ENCODING_HELP, encodingLabel)
    .option("--all-problems", "print every problem, not the first few of each kind", false)
    .option("--max-field-length <n>", MAX_FIELD_LENGTH_HELP, positiveInt, DEFAULT_MAX_FIELD_LENGTH)
    .option("--follow-outside", FOLLOW_OUTSIDE_HELP, false);
}

/** The validate command's flags as commander gives them. */
interface ValidateFlags {
  readonly data: string;
  readonly strict: boolean;
  readonly encoding?: string;
  readonly allProblems: boolean;
  readonly json: boolean;
  readonly maxFieldLength: number;
  readonly followOutside: boolean;
}

/** The check command's flags as commander gives them. */
interface CheckFlags {
  readonly dir: string;
  readonly concurrency: number;
  readonly sample?: number;
  readonly seed: number;
  readonly timeout: number;
  readonly connect?: { readonly host: string; readonly port: number };
  readonly etags: boolean;
  readonly json: boolean;
  readonly quiet: boolean;
}

/** The export command's flags as commander gives them. */
interface ExportFlags {
  readonly data: string;
  readonly format?: "xlsx" | "csv";
  readonly out: string;
  readonly strict: boolean;
  readonly encoding?: string;
  readonly allProblems: boolean;
}

/** The build's options from its flags and the environment. */
function buildOptionsOf(flags: BuildFlags, env: Io["env"]): BuildOptions {
  return {
    dataDir: flags.data,
    outDir: flags.out,
    limits: flags.limits,
    forms: flags.forms,
    maxLimit: flags.maxLimit,
    baseUrl: flags.baseUrl ?? baseUrl(defaultBaseUrl(env)),
    cacheControl: flags.cacheControl,
    strict: flags.strict,
    quiet: flags.quiet,
    cacheDir: flags.cache ? flags.cacheDir : null,
    threads: flags.threads ?? "auto",
    maxFieldLength: flags.maxFieldLength,
    followOutside: flags.followOutside,
    allProblems: flags.allProblems,
    ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
    links: flags.links,
    // Netlify's build sets NETLIFY=true: there its limits apply without saying so.
    target: flags.target ?? (env["NETLIFY"] === "true" ? "netlify" : "none"),
    overLimits: flags.overLimits,
  };
}

/** `--data` must be a directory (a missing one is reported as the data's problem), `--out` a directory or nothing yet. */
async function checkDirs(dirs: { readonly data: string; readonly out?: string }): Promise<void> {
  const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isDirectory() === false;
  if (await isFile(dirs.data)) throw new SubjektiError("DATA_NOT_DIR", `--data ${dirs.data} is a file: pass the directory that holds the *.json, *.ndjson, *.csv and *.xlsx files`);
  if (dirs.out !== undefined && (await isFile(dirs.out))) throw new SubjektiError("OUT_NOT_DIR", `--out ${dirs.out} is a file, not a directory: pass another --out, or move the file`);
}

/** The one line for an error of the machine, not of the data: what failed and what to do. */
function environmentLine(error: NodeJS.ErrnoException): string | undefined {
  const where = error.path ?? "";
  switch (error.code) {
    case "EACCES":
    case "EPERM":
      return `cannot ${error.syscall ?? "use"} ${where}: permission denied; check its permissions or pick another directory`;
    case "ENOSPC":
      return `no space left on the device writing ${where}: free some space and build again`;
    case "ENOTDIR":
    case "EEXIST":
    case "EISDIR":
      return `${where}: ${error.code === "EISDIR" ? "a directory where a file belongs" : "a file where a directory belongs"}; remove it or pick another directory`;
    case "EMFILE":
      return "too many open files: raise the limit (ulimit -n) and try again";
    default:
      return undefined;
  }
}

/** Runs the CLI on `argv` (without node and the script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  /** How problems are printed: grouped by kind (default), every line, or JSON lines on stdout (set by the command run). */
  const problemOutput = { all: false, json: false };
  /** The problems kept (the first few of each kind, `kinds` counting them all), summarised by kind; or as JSON lines. */
  const printProblems = (problems: readonly Problem[], kinds: readonly ProblemKind[]): void => {
    if (problemOutput.json) {
      for (const line of problemsAsJsonLines(problems)) io.stdout.write(`${line}\n`);
      return;
    }
    const counts = new Map(kinds.map((k) => [k.key, k.count]));
    const lines = summariseProblems(problems, { all: problemOutput.all, countOf: (p) => counts.get(kindKey(p)) });
    for (const line of lines) io.stderr.write(`${line}\n`);
  };
  let preview: { host: string; port: number } | undefined;
  const program = new Command("subjekti")
    .description("The Registry of Subjects as a static JSON API")
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });

  const build = program
    .command("build")
    .description("validate data/ and pre-render the site into dist/")
    .option("--data <dir>", "the source data directory (*.json, *.ndjson, *.csv, *.xlsx)", DEFAULT_OPTIONS.dataDir)
    .option("--out <dir>", "the site directory", DEFAULT_OPTIONS.outDir)
    .option("--limits <list>", "page sizes pre-rendered as files, comma-separated", limitList, [...DEFAULT_OPTIONS.limits])
    .option("--forms <list>", "forms of ?format pre-rendered: plain, api, json", formList, [...DEFAULT_OPTIONS.forms])
    .option("--max-limit <n>", "the largest page size a request gets", positiveInt, DEFAULT_OPTIONS.maxLimit)
    .addOption(new Option("--base-url <url>", "the public origin in links (default on Netlify: $URL in production, $DEPLOY_PRIME_URL in other contexts; else http://localhost:8080)").argParser(baseUrl))
    .option("--cache-control <value>", "the Cache-Control header of every answer", DEFAULT_OPTIONS.cacheControl)
    .option("-q, --quiet", "no progress bar", false)
    .option("--cache-dir <dir>", "where the build cache is kept: a rebuild re-reads only the changed records", DEFAULT_OPTIONS.cacheDir)
    .option("--no-cache", "read every record, and keep no build cache")
    .option("--json", "print one JSON report (counts, warnings, timings, the URLs and cache tags that changed) instead of the summary", false)
    .option("--threads <n>", "threads that parse and render JSON arrays (default: one per core for large inputs; 0: none)", threadCount)
    .addOption(new Option("--links <kind>", "query: DRF's links (?limit=&offset=), for hosts that route; files: links to the page files themselves, for plain static hosts (--out becomes a link to the built tree)").choices(["query", "files"]).default("query"))
    .addOption(new Option("--target <host>", "check the site against this host's limits before writing (default: netlify when $NETLIFY is true, else none)").choices(TARGETS))
    .addOption(new Option("--over-limits <action>", "over the target's limits: refuse (exit 1, nothing written) or warn and build").choices(["refuse", "warn"]).default("refuse"));
  withReadOptions(build)
    .action(async (flags: BuildFlags) => {
      problemOutput.all = flags.allProblems;
      // With --json a build that fails prints its problems as JSON lines on stdout, as validate --json does.
      problemOutput.json = flags.json;
      const options = buildOptionsOf(flags, io.env);
      if (options.links === "files" && options.limits.length === 0) build.error("error: --links files needs at least one of --limits: a plain static host has no router to derive pages", { exitCode: 2 });
      await checkDirs({ data: options.dataDir, out: options.outDir });
      // Refused before the data is read: with --links files, --out must be free or the link a build made.
      const plain = await import("./site/write-plain-site.ts");
      if (options.links === "files") await plain.readPlainOut(options.outDir);
      else if (await plain.isPlainOut(options.outDir)) throw new SubjektiError("OUT_IS_PLAIN", `--out ${options.outDir} is a site of plain files (built with --links files): pass --links files to rebuild it, or another --out`);
      const [{ buildSite }, { jsonReport, printBuildReport, progressBar }] = await Promise.all([import("./site/build-site.ts"), import("./site/build-report.ts")]);
      const bar = options.quiet ? undefined : progressBar(io.stderr);
      const report = await buildSite(options, bar?.update);
      bar?.done();
      for (const warning of report.overLimits) io.stderr.write(`subjekti: warning: ${warning}\n`);
      if (flags.json) {
        // stdout holds the report alone, so it can be piped to a parser; the warnings are in it.
        io.stdout.write(jsonReport(report, options));
        return;
      }
      printProblems(report.warnings, report.kinds);
      printBuildReport(report, options, io.stdout);
    });

  const validate = program
    .command("validate")
    .description("check data/ against every rule and report every problem; writes nothing")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .option("--json", "print the problems as JSON lines on stdout, for tools", false);
  withReadOptions(validate)
    .action(async (flags: ValidateFlags) => {
      problemOutput.all = flags.allProblems;
      problemOutput.json = flags.json;
      const [{ readInIdOrder }, { loadMetadata }] = await Promise.all([import("./site/read-in-order.ts"), import("./site/dataset-metadata.ts")]);
      await checkDirs({ data: flags.data });
      await loadMetadata(flags.data);
      // The records as a build reads them (threads for large inputs), not parsed back into objects.
      const read = { dataDir: flags.data, strict: flags.strict, maxFieldLength: flags.maxFieldLength, followOutside: flags.followOutside, allProblems: flags.allProblems };
      const nothing = async (): Promise<void> => undefined;
      const result = await readInIdOrder({ ...read, ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }) }, { take: nothing, restart: nothing });
      printProblems(result.warnings, result.kinds);
      const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
      let warnings = 0;
      for (const kind of result.kinds) warnings += kind.count;
      const verdict = `${count(result.count, "subject")} in ${count(result.files.length, "file")}: valid (${count(warnings, "warning")})\n`;
      (flags.json ? io.stderr : io.stdout).write(verdict);
    });

  program
    .command("export")
    .description("write the validated records as a spreadsheet to edit: .xlsx (OIB and code as text cells) or CSV (UTF-8 with BOM, ;)")
    .option("--data <dir>", "the source data directory", DEFAULT_OPTIONS.dataDir)
    .addOption(new Option("--format <format>", "xlsx or csv (default: from the --out extension)").choices(["xlsx", "csv"]))
    .requiredOption("--out <file>", "the file to write")
    .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
    .option("--encoding <label>", ENCODING_HELP, encodingLabel)
    .option("--all-problems", "print every problem, not the first few of each kind", false)
    .action(async (flags: ExportFlags) => {
      problemOutput.all = flags.allProblems;
      await checkDirs({ data: flags.data });
      const { exportRecords } = await import("./site/export-records.ts");
      const format = flags.format ?? (/\.csv$/i.test(flags.out) ? "csv" : "xlsx");
      const report = await exportRecords({ dataDir: flags.data, strict: flags.strict, allProblems: flags.allProblems, format, out: flags.out, ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }) });
      printProblems(report.warnings, report.kinds);
      io.stdout.write(`exported ${report.count} subjects to ${flags.out} (${format})\n`);
    });

  program
    .command("preview")
    .description("serve dist/ locally, routed exactly as the Netlify edge routes it")
    .option("--dir <dir>", "the built site", DEFAULT_OPTIONS.outDir)
    .option("--port <n>", "the port (default: $PORT, else 8080; 0: any free port)", port)
    .option("--host <host>", "the address to listen on (default: $HOST, else 127.0.0.1)")
    .option("--allowed-hosts <list>", "answer only these Host names, any other with a 400, as Django's ALLOWED_HOSTS (default: every host)", allowedHostList)
    .action(async (flags: { readonly dir: string; readonly port?: number; readonly host?: string; readonly allowedHosts?: string[] }) => {
      preview = { host: flags.host ?? io.env["HOST"] ?? DEFAULT_HOST, port: flags.port ?? envPort(io.env["PORT"], DEFAULT_PORT) };
      const { startPreview } = await import("./serve/preview-server.ts");
      const running = await startPreview({ dir: flags.dir, ...preview, ...(flags.allowedHosts === undefined ? {} : { allowedHosts: flags.allowedHosts }) });
      io.stdout.write(`subjekti preview: ${running.url} (Ctrl-C stops)\n`);
      await io.untilStopped();
      await running.close();
    });

  program
    .command("check")
    .description("verify a deployment (or the preview) against the built site: every pre-rendered page, derived pages, the contract's headers, a preflight, a 404 and a 405; exit 1 on any difference")
    .argument("<url>", "the deployment's origin, such as https://example.org (a path is ignored)")
    .option("--dir <dir>", "the built site that was deployed", DEFAULT_OPTIONS.outDir)
    .option("--concurrency <n>", "requests in flight at once", positiveInt, 16)
    .option("--sample <n>", "check a seeded sample of n pre-rendered pages (the first of each limit and form kept) instead of all", positiveInt)
    .option("--seed <n>", "the seed of the sample and of the derived pages", positiveInt, 1)
    .option("--etags", "ask the pre-rendered pages with If-None-Match (a 304 each, no bodies): checks the build and the routing, not each page file's bytes", false)
    .option("--connect <host:port>", "send every request to this address instead of the URL's host (the Host header, TLS name and links stay the URL's): a server checked before DNS points at it", connectTo)
    .option("--timeout <ms>", "milliseconds one request may take", positiveInt, 10_000)
    .option("--json", "print one JSON report instead of the summary", false)
    .option("-q, --quiet", "no progress bar", false)
    .action(async (url: string, flags: CheckFlags) => {
      const [{ checkSite }, { formatReport, jsonReport }, { progressBar }] = await Promise.all([import("./check/check-site.ts"), import("./check/check-report.ts"), import("./site/build-report.ts")]);
      const bar = flags.quiet ? undefined : progressBar(io.stderr, Date.now, "requests");
      const report = await checkSite({ url, dir: flags.dir, concurrency: flags.concurrency, sample: flags.sample, seed: flags.seed, etags: flags.etags, connect: flags.connect, timeoutMs: flags.timeout, progress: bar?.update }).finally(() => bar?.done());
      io.stdout.write(flags.json ? jsonReport(report) : formatReport(report).map((line) => `${line}\n`).join(""));
      if (report.failures.length > 0) throw new SubjektiError("CHECK_FAILED", `${report.failures.length} of ${report.total} requests to ${report.origin} differ from ${flags.dir}`);
    });

  addServeCommand(program, io, (address) => {
    preview = address;
  });
  addNginxCommand(program, io);

  try {
    await program.parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end through here too, with code 0; every other one is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof DataError) printProblems(error.problems, error.kinds);
    if (error instanceof SubjektiError) {
      io.stderr.write(`subjekti: ${error.message}\n`);
      return 1;
    }
    const errno = error as NodeJS.ErrnoException;
    if (errno.code === "EADDRINUSE" && preview !== undefined) {
      io.stderr.write(`subjekti: port ${preview.port} on ${preview.host} is in use: pass another --port (or --port 0 for any free one)\n`);
      return 1;
    }
    if (errno.code === "EADDRNOTAVAIL" && preview !== undefined) {
      io.stderr.write(`subjekti: cannot listen on ${preview.host}: not an address of this machine; pass another --host\n`);
      return 1;
    }
    const line = errno instanceof Error ? environmentLine(errno) : undefined;
    if (line === undefined) throw error;
    io.stderr.write(`subjekti: ${line}\n`);
    return 1;
  }
}

// Run as a script (`tsx src/cli.ts`, as tests and benchmarks do); bin/subjekti.js calls main itself.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), processIo());
}
