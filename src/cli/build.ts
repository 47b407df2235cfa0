/** `subjekti build`: validate the sources and pre-render the site (src/site/build-site.ts). */
import { type Command, Option } from "commander";
import { DEFAULT_DOWNLOADS, DOWNLOAD_FORMATS, type DownloadFormat, isDownloadFormat } from "../core/download-files.ts";
import type { Form } from "../core/layout.ts";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { baseUrlVariable, type BuildOptions, DEFAULT_OPTIONS, defaultBaseUrl } from "../site/build-options.ts";
import { type Target, TARGETS } from "../site/targets.ts";
import type { LinkKind } from "../site/site-shape.ts";
import { type KeepChanges, parseKeep } from "../feed/keep-changes.ts";
import type { Io } from "./io.ts";
import {
  baseUrl,
  checkDirs,
  originOnly,
  formList,
  limitList,
  positiveInt,
  type ReadFlags,
  readOptionsOf,
  threadCount,
  withReadOptions,
} from "./options.ts";
import type { CommandContext } from "./problems-output.ts";
import { stoppable } from "./stop-on-signal.ts";
import { InvalidValue } from "../common/messages/invalid-value.ts";

/** The build command's flags as commander gives them. */
interface BuildFlags extends ReadFlags {
  readonly out: string;
  readonly limits: number[];
  readonly forms: Form[];
  readonly maxLimit: number;
  readonly baseUrl?: string;
  readonly cacheControl: string;
  readonly quiet: boolean;
  readonly cacheDir: string;
  readonly cache: boolean;
  readonly threads?: number;
  readonly json: boolean;
  readonly links: LinkKind;
  readonly target?: Target;
  readonly overLimits: "refuse" | "warn";
  readonly feed: boolean;
  readonly previous?: string;
  readonly ca?: string;
  readonly insecure: boolean;
  readonly keepChanges?: KeepChanges;
  readonly downloads: DownloadFormat[];
  readonly wait: boolean;
}

/** `--downloads ndjson,csv,xlsx`, or `none`. */
function downloadList(text: string): DownloadFormat[] {
  if (text === "none") return [];
  const formats = text.split(",").map((f) => f.trim());
  const bad = formats.filter((f) => !isDownloadFormat(f));
  if (bad.length > 0 || formats.length === 0)
    throw new InvalidValue(msg("invalid.downloads", { formats: DOWNLOAD_FORMATS, got: bad.join(",") || text }));
  return DOWNLOAD_FORMATS.filter((f) => formats.includes(f));
}

function keepChanges(text: string): KeepChanges {
  const keep = parseKeep(text);
  if (keep === null) throw new InvalidValue(msg("invalid.keep-changes", { text }));
  return keep;
}

/**
 * The base URL the environment gives (Netlify's URL or DEPLOY_PRIME_URL, else the preview's). A
 * value refused names the variable it came from, as PORT's does: the maintainer did not type it.
 */
function envBaseUrl(env: Io["env"]): string {
  const text = defaultBaseUrl(env);
  try {
    return baseUrl(text);
  } catch (error) {
    const variable = baseUrlVariable(env);
    if (variable === undefined || !(error instanceof InvalidValue)) throw error;
    throw failure("BAD_BASE_URL", msg("error.env-base-url", { variable, text, detail: error.text }));
  }
}

/** What the command says of a build, from its flags and the environment (the build resolves the rest: build-options.ts). */
export function buildOptionsOf(flags: BuildFlags, env: Io["env"]): BuildOptions & { readonly outDir: string; readonly baseUrl: string } {
  return {
    ...readOptionsOf(flags),
    outDir: flags.out,
    limits: flags.limits,
    forms: flags.forms,
    maxLimit: flags.maxLimit,
    baseUrl: originOnly(flags.baseUrl ?? envBaseUrl(env)),
    cacheControl: flags.cacheControl,
    quiet: flags.quiet,
    cacheDir: flags.cache ? flags.cacheDir : null,
    ...(flags.threads === undefined ? {} : { threads: flags.threads }),
    links: flags.links,
    // Netlify's build sets NETLIFY=true: there its limits apply without saying so.
    ...(flags.target === undefined && env["NETLIFY"] !== "true" ? {} : { target: flags.target ?? "netlify" }),
    overLimits: flags.overLimits,
    feed: flags.feed,
    ...(flags.previous === undefined ? {} : { previous: flags.previous }),
    ...(flags.keepChanges === undefined ? {} : { keepChanges: flags.keepChanges }),
    downloads: flags.downloads,
    sourceDateEpoch: env["SOURCE_DATE_EPOCH"],
    wait: flags.wait,
  };
}

export function addBuildCommand(program: Command, { io, problems, tr, apps }: CommandContext): void {
  const build = program
    .command("build")
    .description("validate data/ and pre-render the site into dist/")
    .option("--data <dir>", "the source data directory (*.json, *.ndjson, *.csv, *.xlsx, *.ods)", DEFAULT_OPTIONS.dataDir)
    .option("--out <dir>", "the site directory", DEFAULT_OPTIONS.outDir)
    .option("--limits <list>", "page sizes pre-rendered as files, comma-separated", limitList, [...DEFAULT_OPTIONS.limits])
    .option("--forms <list>", "forms of ?format pre-rendered: plain, api, json", formList, [...DEFAULT_OPTIONS.forms])
    .option("--max-limit <n>", "the largest page size a request gets", positiveInt, DEFAULT_OPTIONS.maxLimit)
    .addOption(
      new Option(
        "--base-url <url>",
        "the public origin in links (default on Netlify: $URL in production, $DEPLOY_PRIME_URL in other contexts; else http://localhost:8080)",
      ).argParser(baseUrl),
    )
    .option("--cache-control <value>", "the Cache-Control header of every answer", DEFAULT_OPTIONS.cacheControl)
    .option("-q, --quiet", "no progress bar", false)
    .option("--cache-dir <dir>", "where the build cache is kept: a rebuild re-reads only the changed records", DEFAULT_OPTIONS.cacheDir)
    .option("--no-cache", "read every record, and keep no build cache")
    .option(
      "--json",
      "print one JSON report (counts, warnings, timings, the URLs and cache tags that changed) instead of the summary",
      false,
    )
    .option(
      "--threads <n>",
      "threads that parse and render JSON arrays, and one that makes the search files (default: one per core, and the search's, for large inputs; 0: none)",
      threadCount,
    )
    .addOption(
      new Option(
        "--links <kind>",
        "query: DRF's links (?limit=&offset=), for hosts that route; files: links to the page files themselves, for plain static hosts (--out becomes a link to the built tree)",
      )
        .choices(["query", "files"])
        .default("query"),
    )
    .addOption(
      new Option(
        "--target <host>",
        "check the site against this host's limits before writing (default: netlify when $NETLIFY is true, else none)",
      ).choices(TARGETS),
    )
    .addOption(
      new Option("--over-limits <action>", "over the target's limits: refuse (exit 1, nothing written) or warn and build")
        .choices(["refuse", "warn"])
        .default("refuse"),
    )
    .option(
      "--previous <url|dir>",
      "where the last published change feed is read (the live site's origin, or a directory of a built site): a build in CI has no dist/ of the last deploy (default: --out)",
    )
    .option("--ca <file>", "with an https --previous: trust the certificates in this PEM file (a private CA, or a self-signed certificate)")
    .option("--insecure", "with an https --previous: do not check its certificate (the feed read is still verified by its hash)", false)
    .option(
      "--keep-changes <n|Nd>",
      "the change feed's history kept: the last n diffs, or those of the last N days of the data's dates (default: 90d)",
      keepChanges,
    )
    .option("--no-feed", "write no change feed (changes/)")
    .option(
      "--downloads <list>",
      `the whole list as files under downloads/: some of ${DOWNLOAD_FORMATS.join(", ")}, or none`,
      downloadList,
      [...DEFAULT_DOWNLOADS],
    )
    .option("--wait", "when another build is writing --out, wait for it to finish (default: refuse at once)", false);
  withReadOptions(build).action(async (flags: BuildFlags) => {
    problems.all = flags.allProblems;
    // With --json a build that fails prints its problems as JSON lines on stdout, as validate --json does.
    problems.json = flags.json;
    // The CA file is read here, once: the options are resolved synchronously.
    const ca = flags.ca === undefined ? undefined : await (await import("../common/trusted-fetch.ts")).readCa(flags.ca);
    const trusting = ca !== undefined || flags.insecure;
    const options = {
      ...buildOptionsOf(flags, io.env),
      ...(trusting ? { previousTrust: { ...(ca === undefined ? {} : { ca }), insecure: flags.insecure } } : {}),
    };
    if (flags.links === "files" && flags.limits.length === 0) build.error(tr.text("usage.links-files-limits"), { exitCode: 2 });
    await checkDirs({ data: flags.data, out: flags.out });
    // Refused before the data is read: with --links files, --out must be free or the link a build made.
    const plain = await import("../site/write-plain-site.ts");
    if (flags.links === "files") await plain.readPlainOut(flags.out);
    else if (await plain.isPlainOut(flags.out)) throw failure("OUT_IS_PLAIN", msg("error.out-is-plain", { out: flags.out }));
    const [{ buildSite }, { buildNotes, jsonReport, printBuildReport, progressBar }] = await Promise.all([
      apps.build(),
      import("./build-report.ts"),
    ]);
    const bar = flags.quiet ? undefined : progressBar(io.stderr, Date.now, "files", tr);
    const report = await stoppable(io, tr, "build", () =>
      buildSite(options, bar?.update, (line) => io.stderr.write(`subjekti: ${tr.say(line)}\n`)),
    );
    bar?.done();
    for (const warning of report.overLimits) io.stderr.write(`subjekti: ${tr.text("line.over-limits", { detail: tr.say(warning) })}\n`);
    for (const note of buildNotes(report)) io.stderr.write(`subjekti: ${tr.text("line.over-limits", { detail: tr.say(note) })}\n`);
    if (flags.json) {
      // stdout holds the report alone, so it can be piped to a parser; the warnings are in it.
      io.stdout.write(jsonReport(report, options));
      return;
    }
    // Under a baseline the warnings listed are the new ones: every one is printed, then the known ones counted.
    if (report.known !== undefined) problems.all = true;
    await problems.print(report.warnings, report.kinds);
    problems.printKnown(report.known);
    printBuildReport(report, options, io.stdout, tr);
  });
}
