/** `subjekti check`: a deployment (or the preview) verified against the built site (src/check). */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { terminalLines } from "../common/terminal-text.ts";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { connectTo, positiveInt } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";
import { isErrno } from "../common/machine-error.ts";

/**
 * How long a whole check may run by default: a server that never answers costs a request its
 * --timeout, and a large site has many thousands of requests.
 */
const DEFAULT_DEADLINE_S = 600;

interface CheckFlags {
  readonly dir: string;
  readonly concurrency: number;
  readonly sample?: number;
  readonly seed: number;
  readonly timeout: number;
  readonly deadline: number;
  readonly connect?: { readonly host: string; readonly port: number };
  readonly etags: boolean;
  readonly json: boolean;
  readonly quiet: boolean;
  readonly ca?: string;
  readonly insecure: boolean;
}

export function addCheckCommand(program: Command, { io, tr }: CommandContext): void {
  program
    .command("check")
    .description(
      "verify a deployment (or the preview) against the built site: every pre-rendered page, derived pages, the contract's headers, a preflight, a 404 and a 405, searches, filters and orderings, the pages for people; exit 1 on any difference",
    )
    .argument("<url>", "the deployment's origin, such as https://example.org (a path is ignored)")
    .option("--dir <dir>", "the built site that was deployed", DEFAULT_OPTIONS.outDir)
    .option("--concurrency <n>", "requests in flight at once", positiveInt, 16)
    .option(
      "--sample <n>",
      "check a seeded sample of n pre-rendered pages (the first of each limit and form kept) instead of all",
      positiveInt,
    )
    .option("--seed <n>", "the seed of the sample and of the derived pages", positiveInt, 1)
    .option(
      "--etags",
      "ask the pre-rendered pages with If-None-Match (a 304 each, no bodies): checks the build and the routing, not each page file's bytes",
      false,
    )
    .option(
      "--connect <host:port>",
      "send every request to this address instead of the URL's host (the Host header, TLS name and links stay the URL's): a server checked before DNS points at it",
      connectTo,
    )
    .option(
      "--timeout <ms>",
      "milliseconds one request may take, its whole answer received (a server that drips its answer is cut off too)",
      positiveInt,
      10_000,
    )
    .option(
      "--deadline <s>",
      "seconds the whole check may take: past them the requests in flight are cut, the rest not sent, and the check fails",
      positiveInt,
      DEFAULT_DEADLINE_S,
    )
    .option("--ca <file>", "trust the certificates in this PEM file (a private CA, or a self-signed certificate) beside the system's")
    .option("--insecure", "do not check the https certificate at all (the answers are still compared)", false)
    .option("--json", "print one JSON report instead of the summary", false)
    .option("-q, --quiet", "no progress bar", false)
    .action(async (url: string, flags: CheckFlags) => {
      const [{ checkSite }, { formatReport, jsonReport }, { progressBar }] = await Promise.all([
        import("../check/check-site.ts"),
        import("../check/check-report.ts"),
        import("./build-report.ts"),
      ]);
      let ca: string | undefined;
      if (flags.ca !== undefined) {
        try {
          ca = await readFile(flags.ca, "utf8");
        } catch (error) {
          throw failure(
            "BAD_CA",
            msg("error.ca-unreadable", { ca: flags.ca, detail: (isErrno(error) ? error.code : undefined) ?? "error" }),
          );
        }
        if (!ca.includes("-----BEGIN CERTIFICATE-----")) throw failure("BAD_CA", msg("error.ca-not-pem", { ca: flags.ca }));
      }
      const bar = flags.quiet ? undefined : progressBar(io.stderr, Date.now, "requests", tr);
      const report = await checkSite({
        url,
        dir: flags.dir,
        concurrency: flags.concurrency,
        sample: flags.sample,
        seed: flags.seed,
        etags: flags.etags,
        connect: flags.connect,
        timeoutMs: flags.timeout,
        deadlineMs: flags.deadline * 1000,
        trust: { ca, insecure: flags.insecure },
        progress: bar?.update,
      }).finally(() => bar?.done());
      // What the server answered is shown escaped: it may hold control and bidi characters.
      io.stdout.write(terminalLines(flags.json ? jsonReport(report).trimEnd().split("\n") : formatReport(report, tr)));
      if (report.deadline !== null) {
        const checked = report.total - report.deadline.unchecked;
        throw failure(
          "CHECK_FAILED",
          msg("error.check-deadline", {
            origin: report.origin,
            deadline: flags.deadline,
            checked,
            total: report.total,
            failed: report.failures.length,
          }),
        );
      }
      if (report.failures.length > 0)
        throw failure(
          "CHECK_FAILED",
          msg("error.check-failed", { failed: report.failures.length, total: report.total, origin: report.origin, dir: flags.dir }),
        );
      if (report.staleNginx !== null)
        throw failure("CHECK_FAILED", msg("error.check-stale-nginx", { origin: report.origin, dir: flags.dir }));
      const stale = report.fromFiles?.notFromFiles.length ?? 0;
      if (stale > 0) throw failure("CHECK_FAILED", msg("error.check-not-from-files", { count: stale, origin: report.origin }));
    });
}
