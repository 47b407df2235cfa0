/**
 * What `subjekti check` found (CheckReport), and how it prints: one line per difference and a
 * summary in the maintainer's language (the catalogue's `check.*` sentences), or one JSON report.
 */
import type { ProbeKind } from "./plan-probes.ts";
import type { Failure } from "./probe-results.ts";
import { msg, type Message, type Translator } from "../common/messages/message.ts";
import { ENGLISH } from "../common/messages/translate.ts";

/** What a check found: its figures, and each request that did not answer as the built site does. */
export interface CheckReport {
  /** The deployment's origin. */
  readonly origin: string;
  readonly dir: string;
  /** Subjects in the built site. */
  readonly count: number;
  /** The origin the pre-rendered pages' links carry; when it is not `origin`, the deployment derives every page. */
  readonly baseUrl: string;
  /** Requests sent, by kind. */
  readonly checked: Readonly<Partial<Record<ProbeKind, number>>>;
  readonly total: number;
  /** Requests that answered as the built site does: `total` less the failures and, at a deadline, the unchecked. */
  readonly matched: number;
  readonly failures: readonly Failure[];
  /**
   * Behind the nginx configuration (an answer carried SOURCE_HEADER): the requests a file should
   * have answered, and the URLs of those that came from `subjekti serve` instead. Null elsewhere.
   */
  readonly fromFiles: { readonly expected: number; readonly notFromFiles: readonly string[] } | null;
  /**
   * The nginx configuration names another build than `dir`'s (the site hash on the downloads it
   * sends, nginx-config.ts SITE_HEADER): `configured` is that build's, `built` this one's. Null when
   * it names this build, or no answer said.
   */
  readonly staleNginx: { readonly configured: string; readonly built: string } | null;
  /**
   * Requests with a query string answered as their path without it (`searches` of them a search, a
   * filter or an ordering; `first` the first such, a search's when there is one): the host serves
   * files and never hands the query to the router. Null when none was.
   */
  readonly withoutQuery: { readonly count: number; readonly searches: number; readonly first: string } | null;
  readonly seconds: number;
  /** The check stopped at its deadline (milliseconds) with `total - unchecked` requests answered; null when it finished. */
  readonly deadline: { readonly ms: number; readonly unchecked: number } | null;
}

/** SOURCE_HEADER as nginx writes it. */
const SOURCE_HEADER_NAME = "X-Subjekti-Source";

/** Failing requests printed before "… and N more" (`--json` holds them all). */
const SHOWN_FAILURES = 20;

/**
 * The report as lines for a person, in `tr`'s language: each difference (the URL, then what
 * differs), then the summary. What differs is named and quoted as the answer had it (a header's
 * name, its values).
 */
export function formatReport(report: CheckReport, tr: Translator = ENGLISH): string[] {
  const lines: string[] = [];
  for (const failure of report.failures.slice(0, SHOWN_FAILURES)) lines.push(...failureLines(failure, tr));
  if (report.failures.length > SHOWN_FAILURES) lines.push(tr.text("check.more", { more: report.failures.length - SHOWN_FAILURES }));
  if (report.baseUrl !== report.origin) lines.push(tr.text("check.derived-origin", { base: report.baseUrl, origin: report.origin }));
  if (report.withoutQuery !== null) lines.push(tr.text("check.without-query", report.withoutQuery));
  if (report.staleNginx !== null) {
    const { configured, built } = report.staleNginx;
    const missed = report.fromFiles === null ? undefined : notFromFilesCount(report.fromFiles);
    lines.push(tr.text("check.stale-nginx", { configured: configured.slice(0, 12), built: built.slice(0, 12), missed }));
  } else if (report.fromFiles !== null && report.fromFiles.notFromFiles.length > 0) {
    const { expected, notFromFiles } = report.fromFiles;
    lines.push(
      tr.text("check.not-from-files", {
        count: notFromFiles.length,
        answers: expected,
        header: SOURCE_HEADER_NAME,
        first: notFromFiles[0] as string,
      }),
    );
  } else if (report.fromFiles !== null) {
    lines.push(tr.text("check.all-from-files", { answers: report.fromFiles.expected }));
  }
  if (report.deadline !== null) {
    const { ms, unchecked } = report.deadline;
    lines.push(tr.text("check.deadline", { seconds: ms / 1000, unchecked, total: report.total }));
  }
  const kinds = (Object.entries(report.checked) as [ProbeKind, number][])
    .map(([probe, count]) => tr.text("check.kind-count", { count, probe }))
    .join(", ");
  lines.push(
    tr.text("check.summary", {
      origin: report.origin,
      dir: report.dir,
      subjects: report.count,
      total: report.total,
      checked: report.deadline === null ? undefined : report.total - report.deadline.unchecked,
      kinds,
      seconds: report.seconds,
      failed: report.failures.length,
      otherBuild: report.staleNginx !== null,
      notFromFiles: report.fromFiles?.notFromFiles.length ?? 0,
    }),
  );
  return lines;
}

/** How many answers that should have come from files did not, as the stale configuration's line says it (none: undefined). */
function notFromFilesCount(fromFiles: NonNullable<CheckReport["fromFiles"]>): Message | undefined {
  const { expected, notFromFiles } = fromFiles;
  if (notFromFiles.length === 0) return undefined;
  if (notFromFiles.length === expected) return msg("check.stale-none-from-files", { answers: expected });
  return msg("check.stale-some-from-files", { count: notFromFiles.length, answers: expected, first: notFromFiles[0] as string });
}

function failureLines(failure: Failure, tr: Translator): string[] {
  return [
    tr.text("check.request", { method: failure.method, url: failure.url, probe: failure.kind }),
    ...failure.differences.flatMap((d) =>
      d.what === "body"
        ? [
            tr.text("check.body", { offset: d.offset ?? 0 }),
            tr.text("check.body-expected", { expected: d.expected }),
            tr.text("check.body-got", { got: d.got }),
          ]
        : [tr.text("check.difference", d)],
    ),
  ];
}

/** The report as one JSON document (stable keys, for tools). */
export function jsonReport(report: CheckReport): string {
  const { origin, dir, count, baseUrl, checked, total, matched, failures, fromFiles, staleNginx, withoutQuery, deadline } = report;
  const ok = failures.length === 0 && (fromFiles?.notFromFiles.length ?? 0) === 0 && staleNginx === null && deadline === null;
  return `${JSON.stringify({ ok, origin, dir, count, baseUrl, total, matched, checked, fromFiles, staleNginx, withoutQuery, deadline, seconds: Number(report.seconds.toFixed(3)), failures }, null, 2)}\n`;
}
