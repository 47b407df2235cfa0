/** What `subjekti check` found (CheckReport), and how it prints: one line per difference and a summary, or one JSON report. */
import type { ProbeKind } from "./plan-probes.ts";
import type { Failure } from "./probe-results.ts";

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

/** The report as lines for a person: each difference (the URL, then what differs), then the summary. */
export function formatReport(report: CheckReport): string[] {
  const lines: string[] = [];
  for (const failure of report.failures.slice(0, SHOWN_FAILURES)) lines.push(...failureLines(failure));
  if (report.failures.length > SHOWN_FAILURES)
    lines.push(`… and ${report.failures.length - SHOWN_FAILURES} more requests that differ (--json lists them all)`);
  if (report.baseUrl !== report.origin) {
    lines.push(
      `note: the site was built for ${report.baseUrl}; on ${report.origin} every page is derived from the records, so the pre-rendered files were not read (check ${report.baseUrl} for them)`,
    );
  }
  if (report.withoutQuery !== null) {
    const { count, searches, first } = report.withoutQuery;
    lines.push(
      `${count} requests with a query string (${searches} of them searching, filtering or ordering) were answered as their path without it, such as ${first}: the host does not hand query strings to the router (a plain static host, or a rule that serves a file whatever the query); searching, filtering, ordering and paging need a host that routes: the Netlify edge function, the Worker, or subjekti serve (docs/hosting.md)`,
    );
  }
  if (report.staleNginx !== null) {
    const { configured, built } = report.staleNginx;
    const missed = report.fromFiles === null ? "" : notFromFilesCount(report.fromFiles);
    lines.push(
      `the nginx configuration was generated for another build (site ${configured.slice(0, 12)}, this build is ${built.slice(0, 12)})${missed}: regenerate it with subjekti nginx, then nginx -t and reload nginx`,
    );
  } else if (report.fromFiles !== null && report.fromFiles.notFromFiles.length > 0) {
    const { expected, notFromFiles } = report.fromFiles;
    lines.push(
      `${notFromFiles.length} of ${expected} answers that nginx should send from the site's files came from subjekti serve (no ${SOURCE_HEADER_NAME}: file), such as ${notFromFiles[0]}: the nginx configuration is older than the build; run subjekti nginx again, nginx -t, and reload nginx`,
    );
  } else if (report.fromFiles !== null) {
    lines.push(`all ${report.fromFiles.expected} answers that nginx should send from the site's files came from files`);
  }
  if (report.deadline !== null) {
    const { ms, unchecked } = report.deadline;
    lines.push(
      `stopped at the deadline of ${ms / 1000} s: ${unchecked} of ${report.total} requests were not checked (pass a longer --deadline, or --sample n)`,
    );
  }
  const kinds = Object.entries(report.checked)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const stale = report.fromFiles?.notFromFiles.length ?? 0;
  const staleVerdict =
    report.staleNginx !== null ? ", the nginx configuration is another build's" : stale === 0 ? "" : `, ${stale} not from files`;
  const verdict = report.failures.length === 0 ? `all match${staleVerdict}` : `${report.failures.length} differ${staleVerdict}`;
  const checked = report.deadline === null ? "" : ` (${report.total - report.deadline.unchecked} checked before the deadline)`;
  lines.push(
    `${report.origin} against ${report.dir} (${report.count} subjects): ${report.total} requests${checked} (${kinds}) in ${report.seconds.toFixed(1)} s: ${verdict}`,
  );
  return lines;
}

/** How many answers that should have come from files did not, as the stale configuration's line says it. */
function notFromFilesCount(fromFiles: NonNullable<CheckReport["fromFiles"]>): string {
  const { expected, notFromFiles } = fromFiles;
  if (notFromFiles.length === 0) return "";
  if (notFromFiles.length === expected)
    return `, so none of the ${expected} answers that nginx should send from the site's files came from files (its page files are gone)`;
  return `, so ${notFromFiles.length} of the ${expected} answers that nginx should send from the site's files came from subjekti serve, such as ${notFromFiles[0]}`;
}

function failureLines(failure: Failure): string[] {
  return [
    `${failure.method} ${failure.url} (${failure.kind}):`,
    ...failure.differences.flatMap((d) =>
      d.what === "body"
        ? [`  body: first difference at byte ${d.offset ?? 0}`, `    expected: ${d.expected}`, `    got:      ${d.got}`]
        : [`  ${d.what}: expected ${d.expected}, got ${d.got}`],
    ),
  ];
}

/** The report as one JSON document (stable keys, for tools). */
export function jsonReport(report: CheckReport): string {
  const { origin, dir, count, baseUrl, checked, total, matched, failures, fromFiles, staleNginx, withoutQuery, deadline } = report;
  const ok = failures.length === 0 && (fromFiles?.notFromFiles.length ?? 0) === 0 && staleNginx === null && deadline === null;
  return `${JSON.stringify({ ok, origin, dir, count, baseUrl, total, matched, checked, fromFiles, staleNginx, withoutQuery, deadline, seconds: Number(report.seconds.toFixed(3)), failures }, null, 2)}\n`;
}
