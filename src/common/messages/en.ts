/**
 * Every sentence the tool says to a maintainer, in English: data problems (what was expected,
 * what was found, the hint), the summaries, and the CLI's errors. English is the reference: its
 * keys are the catalogue's, and its parameters the ones every language takes (hr.ts).
 */
/**
 * A parameter that is itself a message (a problem's rule inside an error's sentence): the catalogue
 * declares it `Said` and receives its sentence in the same language; whoever makes the message
 * passes the Message (message.ts). Declared here, with the reference catalogue, so the catalogue
 * imports nothing.
 */
export type Said = string & { readonly __said: true };

const NUMBER = new Intl.NumberFormat("en-US");
/** `5753` as `5,753`. */
const n = (x: number): string => NUMBER.format(x);
/** `1 subject`, `2 subjects`. */
const count = (x: number, noun: string): string => `${x} ${noun}${x === 1 ? "" : "s"}`;
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;
const or = (words: readonly string[]): string => words.map((w) => JSON.stringify(w)).join(" or ");
/** Why a place cannot be written, by its errno code. */
const reason = (code: string): string =>
  ({
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "the file system is read-only",
    ENOSPC: "no space left on the disk",
    EDQUOT: "the disk quota is used up",
    ENOTDIR: "a file where a directory belongs",
    EEXIST: "a file where a directory belongs",
    EISDIR: "a directory where a file belongs",
  })[code] ?? (code === "" ? "an error" : code);
/** Who holds an output's lock: a process (with its host when it is another machine's), or a lock that names none. */
export interface LockWho {
  readonly shown: string;
  readonly path: string;
  readonly holder?: { readonly pid: number; readonly command: string; readonly since: string; readonly host?: string };
}
const holder = (p: LockWho): string => {
  if (p.holder === undefined) return `a lock that names no subjekti process (${p.path})`;
  const who = `process ${p.holder.pid} (subjekti ${p.holder.command} since ${p.holder.since})`;
  return p.holder.host === undefined ? who : `${who} on host ${p.holder.host}; if nothing runs there, remove ${p.path}`;
};

/** What gave an option's value that conflicts with another's: the command line, or an environment variable. */
export interface UsageSource {
  readonly env: boolean;
  readonly name: string;
}
const source = (p: UsageSource): string => (p.env ? `environment variable '${p.name}'` : `option '${p.name}'`);

/**
 * What a request of `subjekti check` checks (check/plan-probes.ts ProbeKind is this): its name in
 * `--json` and the English report, a phrase of its own in every other language. Listed here, in
 * the order the summary counts them, because the catalogues (common) may not import the check.
 */
export const CHECK_KINDS = [
  "pre-rendered",
  "derived",
  "head",
  "conditional",
  "preflight",
  "options",
  "redirect",
  "not-found",
  "not-allowed",
  "not-acceptable",
  "published",
  "download",
  "lookup",
  "search",
  "page",
] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export const en = {
  // The lines a problem is printed as.
  "line.problem": (p: { where: string; warning: boolean; field?: string; expected: string; got?: string; hint?: string }) =>
    `${p.where}:${p.warning ? " warning:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} expected ${p.expected}${p.got === undefined ? "" : `, got ${p.got}`}${p.hint === undefined ? "" : ` (${p.hint})`}`,
  "line.says": (p: { where: string; warning: boolean; says: string }) => `${p.where}${p.warning ? ": warning:" : ""} ${p.says}`,
  "line.more": (p: { more: number; warning: boolean; field?: string; expected: string }) =>
    `… and ${n(p.more)} more like this:${p.warning ? " warning:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} expected ${p.expected}`,
  "line.form": (p: {
    where: string;
    warning: boolean;
    field?: string;
    count: number;
    form: string;
    expected: string;
    got?: string;
    hint?: string;
    also: readonly string[];
    more: number;
  }) =>
    `${p.where}:${p.warning ? " warning:" : ""}${p.field === undefined ? "" : ` ${p.field}:`} ${n(p.count)} × ${p.form}: expected ${p.expected}${p.got === undefined ? "" : `, got ${p.got}`}${p.hint === undefined ? "" : ` (${p.hint})`}` +
    (p.also.length === 0 ? "" : `; also ${p.also.join(", ")}${p.more > 0 ? ` and ${n(p.more)} more` : ""}`),
  "line.known": (p: { count: number; path: string }) =>
    `${p.count === 1 ? "1 known warning" : `${p.count} known warnings`}, accepted in ${p.path} (not listed; subjekti validate --accept records the current ones)`,
  "line.over-limits": (p: { detail: string }) => `warning: ${p.detail}`,
  "field.unknown": () => "an unknown field",
  "table.title": () => "problems by kind:",
  "table.count": (p: { count: number }) => n(p.count),
  "table.error": () => "error",
  "table.warning": () => "warning",
  "table.file": () => "(file)",
  "table.rule": (p: { expected: string }) => `expected ${p.expected}`,
  "table.form-rule": (p: { form: string; expected: string }) => `${p.form} (expected ${p.expected})`,

  // What a field or record should have been (the schema's rules are these keys: subject-schema.ts).
  "expected.id": () => "an integer ≥ 1",
  "expected.code-string": () => "at least 4 digits as a string",
  "expected.code": () => "at least 4 digits (zero-padded)",
  "expected.name": () => "a non-empty name",
  "expected.oib-string": () => "11 digits as a string",
  "expected.oib": () => "11 digits",
  "expected.razina": () => "a lowercase word",
  "expected.date-string": () => "a real date YYYY-MM-DD as a string",
  "expected.date": () => "a real date YYYY-MM-DD",
  "expected.true-or-false": () => "true or false",
  "expected.string": () => "a string",
  "expected.schema": (p: { text: string }) => p.text,
  "expected.field-name": () => "one of the ten field names",
  "expected.flat-value": () => "a flat value",
  "expected.subject-object": () => "an object with the ten fields of a subject",
  "expected.field-once": () => "each field once",
  "expected.at-most-characters": (p: { max: number }) => `at most ${n(p.max)} characters`,
  "expected.whole-characters": () => "text of whole characters",
  "expected.check-digit": () => "a valid check digit (ISO 7064 MOD 11,10)",
  "expected.known-razina": (p: { levels: readonly string[] }) => or(p.levels),
  "expected.city": () => "a city",
  "expected.one-subject-oib": () => "an OIB no other subject has",
  "expected.unique-id": () => "a unique id",
  "expected.unique-code": () => "a unique value",
  "expected.code-rising": (p: { previous: string }) => `more than ${p.previous}, as it increases with id`,
  "expected.records-once": () => "each record in one source",
  "expected.utf8": () => "UTF-8 text",
  "expected.encoded-text": (p: { label: string }) => `${p.label} text`,
  "expected.link-inside": () => "a link that stays inside --data",
  "expected.source-once": () => "each source reached once",
  "expected.only-sources": (p: { patterns: readonly string[] }) => `only ${p.patterns.join(", ")} files`,
  "expected.source-directory": (p: { patterns: readonly string[] }) =>
    `a directory of ${p.patterns.join(", ")} files (searched recursively)`,
  "expected.column-name": () => "one of the ten field names as a column",
  "expected.column-once": () => "each column once",
  "expected.column-present": () => "a column in the header row",
  "expected.cell-count": (p: { count: number }) => `${p.count} cells as in the header`,
  "expected.csv": () => "well-formed CSV",
  "expected.header-row": () => "a header row of field names",
  "expected.ndjson-line": () => "one JSON object on the line",
  "expected.json-array": () => "a JSON array of subjects",
  "expected.nothing-after-array": () => "nothing after the array's closing ]",
  "expected.value": () => "a value",
  "expected.array-end": () => "the array's closing ]",
  "expected.json-object": () => "a JSON object",
  "expected.record-size": () => "a record a subject's ten fields could fill",
  "expected.cells-in-columns": () => "cells only in the header's columns",
  "expected.workbook": () => "a workbook (.xlsx or .ods)",
  "expected.worksheet": () => "a worksheet",
  "expected.oib-text-cell": () => "11 digits in a text cell",
  "expected.oib-as-text": () => "11 digits as text",
  "expected.code-text-cell": () => "at least 4 digits in a text cell",
  "expected.code-as-text": () => "at least 4 digits as text",
  "expected.descriptor": () => "a JSON object (a Data Package descriptor)",
  "expected.meta-keys": () =>
    "only title and path (sources); name, title and path (licenses); title, path, email and roles (contributors); title and description (hr)",
  "expected.meta-title": () => "a non-empty title",
  "expected.meta-description": () => "a non-empty description",
  "expected.meta-source-title": () => "a non-empty source title",
  "expected.meta-sources": () => "a list of sources",
  "expected.meta-one-source": () => "at least one source",
  "expected.meta-licence-name": () => "a licence identifier",
  "expected.meta-licence-title": () => "a non-empty licence title",
  "expected.meta-licences": () => "a list of licences",
  "expected.meta-one-licence": () => "at least one licence",
  "expected.meta-url": () => "an http(s) URL",
  "expected.meta-iri": () =>
    "an http(s) URL that is an IRI as it stands: a space, quote, <, >, {, }, |, ^, backtick, backslash or control character percent-encoded",
  "expected.meta-hr-title": () => "a non-empty Croatian title",
  "expected.meta-hr-description": () => "a non-empty Croatian description",
  "expected.meta-contributors": () => "a list of contributors",
  "expected.meta-contributor-title": () => "a non-empty contributor title",
  "expected.meta-email": () => "an e-mail address",
  "expected.meta-role": () => "publisher, contact, creator, author, maintainer or contributor",

  // The spreadsheet forms read as the data's own (spreadsheet-forms.ts).
  "form.oib-number-cell": () => "an OIB in a number cell",
  "form.oib-zeros-lost": () => "an OIB without its leading zeros",
  "form.code-number-cell": () => "a code in a number cell",
  "form.code-zeros-lost": () => "a code without its leading zeros",

  // What was found, when it is described rather than shown as written.
  "value.nothing": () => "nothing",
  "value.none": () => "none",
  "value.no-directory": () => "no such directory",
  "value.empty-file": () => "an empty file",
  "value.empty-sheet": () => "an empty sheet",
  "value.end-of-file": () => "the end of the file",
  "value.nested": (p: { array: boolean; depth: number }) => `${p.array ? "an array" : "an object"} nested ${n(p.depth)} deep`,
  "value.long-number": (p: { shown: string; digits: number }) => `${p.shown} (${n(p.digits)} digits)`,
  "value.twice": (p: { before: string; after: string }) => `${p.before} and then ${p.after}`,
  "value.characters": (p: { count: number }) => `${n(p.count)} characters`,
  "value.bytes": (p: { count: number }) => `${n(p.count)} bytes`,
  "value.bytes-hex": (p: { count: number; hex: string }) => `the byte${p.count === 1 ? "" : "s"} ${p.hex}`,
  "value.more-bad-bytes": (p: { count: number }) => `${p.count} more bad bytes`,
  "value.link-to": (p: { target: string }) => `one to ${p.target}`,
  "value.link-read": (p: { target: string }) => `a link to ${p.target}, read already`,
  "value.second-path": (p: { first: string }) => `a second path to ${p.first}`,
  "value.ignored": (p: { names: readonly string[]; more: number }) =>
    `ignored: ${p.names.join(", ")}${p.more > 0 ? ` and ${p.more} more` : ""}`,

  // Hints: what probably went wrong, or what to do; always a value the tool accepts.
  "hint.did-you-mean": (p: { name: string }) => `did you mean ${p.name}?`,
  "hint.flat-fields": () => "a subject's fields are flat values",
  "hint.too-many-digits": () => "too many digits for an exact number",
  "hint.json-last-value": () => "JSON keeps only the last value; which one is meant?",
  "hint.max-field-length": () => "--max-field-length raises the bound",
  "hint.lone-surrogate": (p: { hex: string }) => `a lone surrogate \\u${p.hex}: a character cut in half?`,
  "hint.missing-field": () => "the field is missing",
  "hint.id-quoted": () => "a string: write the number without quotes",
  "hint.new-subject": () => "a new subject? give it an id and a code above every other: codes rise with ids",
  "hint.next-keys": (p: { id: number; code: string }) =>
    `a new subject? the next free id is ${p.id} and code ${p.code}: codes rise with ids`,
  "hint.id-fraction": () => "a whole number, no fraction",
  "hint.lost-zeros": () => "a number loses leading zeros: write it as a string",
  "hint.code-padding": (p: { digits: number }) => `${count(p.digits, "digit")} — zero padding lost in a spreadsheet?`,
  "hint.oib-scientific": () => "a spreadsheet wrote it as a number: format the column as text",
  "hint.text-number-cell": () => "a spreadsheet wrote it as a number: format the column as text",
  "hint.oib-zero-lost": () => "10 digits — leading zero lost in a spreadsheet?",
  "hint.digit-count": (p: { digits: number }) => count(p.digits, "digit"),
  "hint.oib-prefix": () => "without the HR prefix",
  "hint.oib-separators": () => "digits only, no spaces or separators",
  "hint.lowercase": (p: { value: string }) => `write it in lowercase: ${p.value}`,
  "hint.day-number": () => "a spreadsheet day number? format the column as text YYYY-MM-DD",
  "hint.flag-quoted": (p: { value: string }) => `a string: write ${p.value} without quotes`,
  "hint.flag-json": () => "write true or false, without quotes",
  "hint.flag-words": () => "write TRUE or FALSE (or TOČNO or NETOČNO)",
  "hint.null-text": () => 'write "" when there is none',
  "hint.no-month": (p: { month: string }) => `there is no month ${p.month}`,
  "hint.no-year-zero": () => "there is no year 0",
  "hint.days-in-month": (p: { year: string; month: number; days: number }) => `${MONTHS[p.month - 1] ?? ""} ${p.year} has ${p.days} days`,
  "hint.croatian-date": (p: { date: string }) => `a day.month.year date? write ${p.date}`,
  "hint.date-only": () => "the date only, without a time",
  "hint.day-month-order": () => "day/month or month/day? write YYYY-MM-DD",
  "hint.check-digit": (p: { digit: number }) => `the last digit should be ${p.digit} — a typo?`,
  "hint.new-level": () => "a new level? it is published as it is",
  "hint.published-empty": () => "published empty",
  "hint.same-oib": (p: { id: number; code: string; otherId: number; otherCode: string; where: string; row?: number }) =>
    `id ${p.id} (code ${p.code}) and id ${p.otherId} (code ${p.otherCode}, at ${p.where}${p.row === undefined ? "" : `, row ${p.row}`}) have the same OIB: the same institution twice?`,
  "hint.also-at": (p: { where: string }) => `also at ${p.where}`,
  "hint.code-also": (p: { code: string; id: number; where: string }) => `${p.code} is also id ${p.id}'s, at ${p.where}`,
  "hint.just-before": (p: { previous: number; id: number; where: string }) => `id ${p.previous}, just before id ${p.id}, is at ${p.where}`,
  "hint.windows-1250-csv": (p: { word: string }) =>
    `the file looks like Windows-1250: ${p.word} — save it from Excel as "CSV UTF-8", or build with --encoding windows-1250`,
  "hint.windows-1250": (p: { word: string }) => `the file looks like Windows-1250: ${p.word} — save it as UTF-8`,
  "hint.save-utf8": () => "save the file as UTF-8",
  "hint.first-located": () => "only the first are located",
  "hint.not-followed": () => "not followed; --follow-outside follows it",
  "hint.link-loop": () => "a second way to the same files, or a loop; they are read once",
  "hint.read-once-as": (p: { first: string }) => `read once, as ${p.first}`,
  "hint.save-spreadsheets": () => "save spreadsheets as .xlsx, .ods or CSV UTF-8 to have them read",
  "hint.data-dir": () => "is --data the right directory?",
  "hint.rename-column": (p: { name: string }) => `did you mean ${p.name}? rename the column`,
  "hint.delete-or-rename": (p: { names: readonly string[] }) => `delete the column or rename it to one of ${p.names.join(", ")}`,
  "hint.column-repeated": () => "the column is repeated: delete one",
  "hint.column-missing": () => "the column is missing: add it",
  "hint.delimiter": () => "a missing or extra delimiter, or an unquoted cell holding one?",
  "hint.encoding-bytes": () => "bytes this encoding has no character for, on this line or the next: is --encoding right?",
  "hint.csv-parser": (p: { detail: string }) => p.detail,
  "hint.syntax": (p: { detail: string }) => p.detail,
  "hint.syntax-at-column": (p: { detail: string; column: number }) => `${p.detail} at column ${p.column}`,
  "hint.syntax-in-record": (p: { detail: string; line: number }) => `${p.detail}, in the record starting on line ${p.line}`,
  "hint.syntax-on-line": (p: { detail: string; line: number }) => `${p.detail} on line ${p.line}`,
  "hint.one-object": () => "one object, not a list: put the subjects in [ ]",
  "hint.on-line": (p: { line: number }) => `on line ${p.line}`,
  "hint.extra-comma": (p: { line: number }) => `an extra comma on line ${p.line}?`,
  "hint.trailing-comma": (p: { line: number }) => `a trailing comma on line ${p.line}?`,
  "hint.empty-array": () => "write [] for no subjects",
  "hint.cut-short": () => "is the file cut short?",
  "hint.one-record": () => "is it one record?",
  "hint.unnamed-column": () => "a column without a field name: delete it, or name it",
  "hint.unreadable": (p: { detail: string }) => `it cannot be read: ${p.detail}`,
  "hint.read-as": (p: { value: string }) => `read as ${p.value}; format the column as text to keep the zeros`,

  // A problem said in a sentence of its own.
  "says.repeats-source": (p: { other: string }) => `repeats every record of ${p.other}: keep one`,

  // Summaries.
  "summary.valid": (p: { subjects: number; files: number; warnings: number; known?: number }) =>
    `${count(p.subjects, "subject")} in ${count(p.files, "file")}: valid (${count(p.warnings, p.known === undefined ? "warning" : "new warning")}${p.known === undefined ? "" : `, ${p.known} known`})`,
  "summary.accepted": (p: { count: number; path: string }) =>
    `accepted ${count(p.count, "warning")} as known in ${p.path}: review it, and commit it with the data`,
  "summary.exported": (p: { count: number; out: string; format: string }) => `exported ${p.count} subjects to ${p.out} (${p.format})`,
  "summary.built": (p: {
    count: number;
    reused: number;
    out: string;
    files: number;
    written: number;
    writtenBytes: string;
    unchanged: number;
    removed: number;
    removedBytes: string;
    seconds: number;
  }) =>
    `built ${p.count} subjects${p.reused > 0 ? ` (${p.reused} unchanged, from the build cache)` : ""} into ${p.out}/: ${p.files} files, ` +
    `${p.written} written (${p.writtenBytes}), ${p.unchanged} unchanged, ${p.removed} removed (${p.removedBytes}) in ${p.seconds.toFixed(2)}s`,
  "summary.feed-started": (p: { sequence: number }) =>
    `change feed: a new feed starts at sequence ${p.sequence} (no previous state found: pass --previous <url> to continue the live site's)`,
  "summary.feed-unchanged": (p: { sequence: number }) =>
    `no subject changed since the last build (change feed: still sequence ${p.sequence})`,
  "summary.feed-changes": (p: { added: number; removed: number; changed: number; sequence: number; diff: string }) =>
    `subjects since the last build: ${p.added} added, ${p.removed} removed, ${p.changed} changed (change feed: sequence ${p.sequence - 1} -> ${p.sequence}, ${p.diff} diff)`,
  "summary.serving": (p: { url: string }) => `${p.url} (Ctrl-C stops)`,
  "summary.watching": (p: { dir: string }) => `watching ${p.dir}/ for changes`,
  "summary.rebuilt": (p: { summary: string }) => `rebuilt: ${p.summary}`,
  "summary.watch-feed-off": (p: { out: string }) =>
    `the change feed is off: ${p.out} was built with --no-feed, so these rebuilds write no /changes/ and a mirror cannot follow them`,
  "summary.rebuild-failed": () => "the rebuild failed; still serving the last good site",
  "summary.stopped": (p: { what: "build" | "export" | "validate" | "sync"; signal: string; left: readonly string[] }) =>
    `${p.what} stopped by ${p.signal}: its temporary files are removed${p.left.length === 0 ? "" : `; could not remove everything: ${p.left.join("; ")}`}`,

  "summary.synced": (p: {
    added: number;
    removed: number;
    changed: number;
    from: number | null;
    to: number;
    snapshot?: Said | undefined;
  }) =>
    `+${p.added} −${p.removed} ~${p.changed} subjects, sequence ${p.from === null ? "none" : String(p.from)} → ${p.to}${p.snapshot === undefined ? "" : ` (snapshot: ${p.snapshot})`}`,
  "summary.synced-names": (p: { kind: "added" | "removed" | "changed"; names: string }) => `  ${p.kind}: ${p.names}`,
  "summary.more-names": (p: { count: number }) => ` and ${n(p.count)} more`,
  // Why sync downloaded the snapshot rather than applying the diffs (sync-mirror.ts); `--json` keeps the English.
  "sync.no-local-copy": () => "no verified local copy",
  "sync.not-behind": (p: { local: number; site: number }) =>
    `the local sequence ${p.local} is not behind the site's ${p.site}: another feed`,
  "sync.older-than-kept": (p: { local: number; oldest: number }) =>
    `the local sequence ${p.local} is older than the oldest diff kept (${p.oldest})`,
  "sync.too-far-behind": (p: { local: number; behind: number; max: number }) =>
    `the local sequence ${p.local} is ${p.behind} diffs behind, more than the ${p.max} a run applies`,
  "sync.diffs-end": (p: { version: string }) => `the diffs end at ${p.version}…, not the site's version`,
  "sync.diff-status": (p: { url: string; status: number }) => `the diff ${p.url} answered ${p.status}`,
  "sync.diff-not-applying": (p: { url: string; version: string }) => `the diff ${p.url} does not apply to version ${p.version}…`,
  "sync.diff-other-version": (p: { url: string; written: string }) => `the diff ${p.url} does not give its to_version (got ${p.written}…)`,
  "sync.diff-unreadable": (p: { url: string; detail: string }) => `the diff ${p.url} cannot be read: ${p.detail}`,

  // subjekti serve.
  "serve.refused-host": (p: { host: string; allowed: readonly string[] }) =>
    `refused Host ${p.host} with a 400: it is not in --allowed-hosts (${p.allowed.join(", ")}); add it there if it is yours`,
  "serve.any-host": (p: { collection: string }) => `${p.collection} for any Host (SIGTERM stops after the answers in flight)`,
  "serve.allowed-hosts": (p: { origin: string; allowed: readonly string[]; host: string; collection: string }) =>
    `${p.origin}/healthz answers any Host; the API answers Host ${p.allowed.join(", ")}: curl -H 'Host: ${p.host}' ${p.collection} (SIGTERM stops after the answers in flight)`,
  "serve.stopped": () => "stopped",

  // A progress bar's figures (build-report.ts), after the bar itself.
  "progress.bar": (p: { done: number; total: number; unit: "files" | "requests"; rate: number; eta: string }) =>
    `${p.done}/${p.total} ${p.unit}  ${p.rate}/s  ${p.eta}s left`,

  // The deploy preflight (deploy-preflight.ts): a host's limits a site goes over, and the options that fit.
  "preflight.does-not-fit": (p: { host: Said; over: readonly Said[]; fits: readonly Said[]; source?: string | undefined }) =>
    `the site does not fit ${p.host}: ${p.over.join("; ")}; ${p.fits.length === 0 ? "no option of this build fits it; choose another --target" : `fits with ${p.fits.join(", or ")}`}${p.source === undefined ? "" : ` (limits: ${p.source})`}`,
  // The hosts whose limits the preflight knows (deploy-preflight.ts HOST_LIMITS), as a person names them.
  "host.none": () => "no particular host",
  "host.netlify": () => "Netlify",
  "host.cloudflare-free": () => "Cloudflare Workers (free plan)",
  "host.cloudflare-paid": () => "Cloudflare Workers (paid plan)",
  "host.static": () => "a plain static host",
  "preflight.fit": (p: { flags: string; files: number; note?: Said | undefined }) =>
    `${p.flags} (${n(p.files)} files${p.note === undefined ? "" : `; ${p.note}`})`,
  "preflight.query-links": () => "its pages link by query (?limit=&offset=), which a host without routing cannot answer",
  "preflight.files": (p: { files: number; max: number }) => `${n(p.files)} files, over its ${n(p.max)} files a deployment`,
  "preflight.directory": (p: { entries: number; path: string; max: number }) =>
    `${n(p.entries)} files in ${p.path}/, over its ${n(p.max)} files a directory`,
  "preflight.file-bytes": (p: { bytes: number; path: string; max: number }) =>
    `a file of ${n(p.bytes)} bytes (${p.path}), over its ${n(p.max)} bytes a file`,
  "preflight.all-derived": () => "no page pre-rendered: every request derived from the record chunks",
  "preflight.one-limit": () => "clients page by that limit only",
  "preflight.other-limits-derived": () => "requests of other limits are derived",

  // `subjekti check`'s report (check-report.ts): each request that differs, what differs, then the summary.
  "check.request": (p: { method: string; url: string; probe: CheckKind }) => `${p.method} ${p.url} (${p.probe}):`,
  "check.difference": (p: { what: string; expected: string; got: string }) => `  ${p.what}: expected ${p.expected}, got ${p.got}`,
  "check.body": (p: { offset: number }) => `  body: first difference at byte ${p.offset}`,
  "check.body-expected": (p: { expected: string }) => `    expected: ${p.expected}`,
  "check.body-got": (p: { got: string }) => `    got:      ${p.got}`,
  "check.more": (p: { more: number }) => `… and ${p.more} more requests that differ (--json lists them all)`,
  "check.derived-origin": (p: { base: string; origin: string }) =>
    `note: the site was built for ${p.base}; on ${p.origin} every page is derived from the records, so the pre-rendered files were not read (check ${p.base} for them)`,
  "check.without-query": (p: { count: number; searches: number; first: string }) =>
    `${p.count} requests with a query string (${p.searches} of them searching, filtering or ordering) were answered as their path without it, such as ${p.first}: the host does not hand query strings to the router (a plain static host, or a rule that serves a file whatever the query); searching, filtering, ordering and paging need a host that routes: the Netlify edge function, the Worker, or subjekti serve (docs/hosting.md)`,
  "check.stale-nginx": (p: { configured: string; built: string; missed?: Said | undefined }) =>
    `the nginx configuration was generated for another build (site ${p.configured}, this build is ${p.built})${p.missed ?? ""}: regenerate it with subjekti nginx, then nginx -t and reload nginx`,
  "check.stale-none-from-files": (p: { answers: number }) =>
    `, so none of the ${p.answers} answers that nginx should send from the site's files came from files (its page files are gone)`,
  "check.stale-some-from-files": (p: { count: number; answers: number; first: string }) =>
    `, so ${p.count} of the ${p.answers} answers that nginx should send from the site's files came from subjekti serve, such as ${p.first}`,
  "check.not-from-files": (p: { count: number; answers: number; header: string; first: string }) =>
    `${p.count} of ${p.answers} answers that nginx should send from the site's files came from subjekti serve (no ${p.header}: file), such as ${p.first}: the nginx configuration is older than the build; run subjekti nginx again, nginx -t, and reload nginx`,
  "check.all-from-files": (p: { answers: number }) =>
    `all ${p.answers} answers that nginx should send from the site's files came from files`,
  "check.deadline": (p: { seconds: number; unchecked: number; total: number }) =>
    `stopped at the deadline of ${p.seconds} s: ${p.unchecked} of ${p.total} requests were not checked (pass a longer --deadline, or --sample n)`,
  "check.kind-count": (p: { count: number; probe: CheckKind }) => `${p.count} ${p.probe}`,
  "check.summary": (p: {
    origin: string;
    dir: string;
    subjects: number;
    total: number;
    /** Requests answered before the deadline; undefined when the check finished. */
    checked?: number | undefined;
    kinds: string;
    seconds: number;
    failed: number;
    otherBuild: boolean;
    notFromFiles: number;
  }) => {
    const stale = p.otherBuild
      ? ", the nginx configuration is another build's"
      : p.notFromFiles === 0
        ? ""
        : `, ${p.notFromFiles} not from files`;
    return (
      `${p.origin} against ${p.dir} (${p.subjects} subjects): ${p.total} requests${p.checked === undefined ? "" : ` (${p.checked} checked before the deadline)`}` +
      ` (${p.kinds}) in ${p.seconds.toFixed(1)} s: ${p.failed === 0 ? "all match" : `${p.failed} differ`}${stale}`
    );
  },

  // Warnings of a build that goes on.
  "warning.no-licence": (p: { file: string }) =>
    `no licence is declared: the published description (the landing page, datapackage.json, the DCAT catalogue) names none; add ${p.file} with "licenses" to the data directory (docs/open-data.md)`,
  "warning.cache-unwritable": (p: { where: string; code: string; full: boolean }) => {
    const where = p.where === "" ? "the build cache" : p.where;
    const fix = p.full
      ? `free space on the disk that holds ${where}, or pass --cache-dir with a directory on another disk, or --no-cache`
      : "pass --cache-dir with a directory this user can write, or --no-cache";
    return `the build cache cannot be written at ${where} (${reason(p.code)}): the build goes on without it; ${fix}`;
  },
  "warning.search-heap": (p: { mb: number }) =>
    `the search thread ran out of its ${p.mb} MB heap (names or towns of many thousands of characters?): the search files were made again on the main thread, so the site is whole and the build took longer; --threads 0 makes them there from the start`,

  // One writer per output (output-lock.ts).
  "lock.took-over": (p: { shown: string; pid: number; command: string; since: string }) =>
    `${p.shown}: took over the lock of process ${p.pid} (subjekti ${p.command} since ${p.since}), which is no longer running`,
  "lock.waiting": (p: LockWho) => `${p.shown} is being written by ${holder(p)}: waiting for it to finish`,

  // Usage errors (exit 2): commander's, read back by code (cli/usage-error.ts), options and values as typed.
  "usage.unknown-option": (p: { option: string }) => `error: unknown option '${p.option}'`,
  "usage.unknown-command": (p: { command: string }) => `error: unknown command '${p.command}'`,
  "usage.did-you-mean": (p: { names: readonly string[] }) =>
    `(Did you mean ${p.names.length === 1 ? "" : "one of "}${p.names.join(", ")}?)`,
  "usage.missing-argument": (p: { argument: string }) => `error: missing required argument '${p.argument}'`,
  "usage.option-missing-value": (p: { option: string }) => `error: option '${p.option}' argument missing`,
  "usage.missing-option": (p: { option: string }) => `error: required option '${p.option}' not specified`,
  "usage.conflicting-options": (p: { one: UsageSource; another: UsageSource }) =>
    `error: ${source(p.one)} cannot be used with ${source(p.another)}`,
  "usage.too-many-arguments": (p: { command?: string; expected: number; got: number }) =>
    `error: too many arguments${p.command === undefined ? "" : ` for '${p.command}'`}. Expected ${count(p.expected, "argument")} but got ${p.got}.`,
  "usage.invalid-option-value": (p: { option: string; value: string; reason: string }) =>
    `error: option '${p.option}' argument '${p.value}' is invalid. ${p.reason}`,
  "usage.invalid-env-value": (p: { option: string; value: string; variable: string; reason: string }) =>
    `error: option '${p.option}' value '${p.value}' from env '${p.variable}' is invalid. ${p.reason}`,
  "usage.invalid-argument": (p: { argument: string; value: string; reason: string }) =>
    `error: command-argument value '${p.value}' is invalid for argument '${p.argument}'. ${p.reason}`,
  "usage.choices": (p: { choices: readonly string[] }) => `Allowed choices are ${p.choices.join(", ")}.`,
  "usage.usage": (p: { usage: string }) => `Usage: ${p.usage}`,
  "usage.more": (p: { help: string }) => `For more information, try '${p.help}'.`,
  // Why an option's parser refuses a value (the reason of usage.invalid-option-value).
  "invalid.positive-integer": (p: { text: string }) => `expected a positive integer, got "${p.text}"`,
  "invalid.encoding": (p: { text: string }) => `"${p.text}" is not an encoding label (such as utf-8 or windows-1250)`,
  "invalid.connect": (p: { text: string }) => `expected host:port, such as 127.0.0.1:8080, got "${p.text}"`,
  "invalid.form": (p: { form: string }) => `"${p.form}" is not a form; the forms are plain, api and json`,
  "invalid.url": (p: { text: string }) => `expected an absolute URL such as https://example.org, got "${p.text}"`,
  "invalid.http": (p: { text: string }) => `expected http or https, got "${p.text}"`,
  "invalid.downloads": (p: { formats: readonly string[]; got: string }) =>
    `expected some of ${p.formats.join(", ")} (comma-separated), or none; got "${p.got}"`,
  "invalid.keep-changes": (p: { text: string }) => `expected a number of diffs (such as 100) or of days (such as 90d), got "${p.text}"`,
  "invalid.port": (p: { text: string }) => `expected a port from 0 to 65535 (0: any free one), got "${p.text}"`,
  "invalid.host-name": (p: { host: string }) =>
    `"${p.host}" is not a host name (such as registry.example.hr, .example.hr for it and its subdomains, or *)`,
  "invalid.nginx-name": (p: { text: string }) =>
    `"${p.text}" is not a name of lowercase letters, digits and _, starting with a letter (subjekti, subjekti_staging)`,
  "invalid.upstream": (p: { text: string }) => `"${p.text}" is not host:port or unix:/path of \`subjekti serve\``,
  "invalid.listen-address": (p: { address: string }) => `"${p.address}" is not a port or address:port (8080, 127.0.0.1:8080, [::1]:8080)`,
  "invalid.listen-parameter": (p: { parameter: string; parameters: readonly string[] }) =>
    `"${p.parameter}" is not a listen parameter here (${p.parameters.join(", ")})`,
  "invalid.nginx-path": (p: { text: string }) => `"${p.text}": nginx's path cannot hold spaces, quotes, braces, ; $ or \\ here`,
  "invalid.server-name": (p: { name: string }) => `"${p.name}" is not a server name (such as registry.example.hr, *.example.hr or _)`,
  // The project's own usage errors.
  "usage.links-files-limits": () =>
    "error: --links files needs at least one of --limits: a plain static host has no router to derive pages",
  "usage.export-extension": (p: { out: string }) =>
    `error: --out ${p.out}: expected a name ending in .xlsx or .csv (the format is read from it)`,
  "usage.export-format": (p: { out: string; format: string; extension: string }) =>
    `error: --out ${p.out} does not end in .${p.format}, as --format ${p.format} writes: a build would read it as ${p.extension === "" ? "nothing" : p.extension}; name it .${p.format}`,

  // The machine's errors (exit 1): what failed, on which path, and what to do there (machine-error.ts).
  "machine.permission": (p: { syscall: string; where: string }) =>
    `cannot ${p.syscall} ${p.where}: permission denied; check its permissions or pick another directory`,
  "machine.read-only": (p: { syscall: string; where: string }) =>
    `cannot ${p.syscall} ${p.where}: the file system is read-only; pick a directory on a writable one`,
  "machine.no-space": (p: { where: string; quota: boolean; dir: string; temporary: boolean }) =>
    `no space left on the disk that holds ${p.where === "" ? "the files being written" : p.where}${p.quota ? " (the disk quota is used up)" : ""}: free space on that disk (df ${p.dir}), or ${p.temporary ? "set TMPDIR to a directory on another disk" : "pick a directory on another disk"}`,
  "machine.directory-for-file": (p: { where: string }) =>
    `${p.where}: a directory where a file belongs; remove it or pick another directory`,
  "machine.file-for-directory": (p: { where: string }) =>
    `${p.where}: a file where a directory belongs; remove it or pick another directory`,
  "machine.open-files": () => "too many open files: raise the limit (ulimit -n) and try again",
  "machine.io": (p: { syscall: string; where: string }) =>
    `cannot ${p.syscall} ${p.where}: an input/output error (a failing disk, or a network file system gone): check the disk`,

  // The CLI's errors (exit 1): what failed, and what to do.
  "error.locked": (p: LockWho) => `${p.shown} is being written by ${holder(p)}: wait for it to finish, or pass --wait to wait for it`,
  "error.export-cell-too-long": (p: { id: number; field: string; count: number; max: number }) =>
    `id ${p.id}: ${p.field} has ${p.count} characters, more than a workbook cell holds (${p.max}), which Excel cuts when it saves; export as CSV (--format csv), or shorten it in the source`,
  "error.export-not-same": (p: { out: string; why: Said }) =>
    `--out ${p.out}: the file written does not read back to the records exported (${p.why}), so it is not written; please report this with the data that causes it`,
  "reason.read-back-problem": (p: { field?: string; line?: number; expected: Said }) =>
    `${p.field ?? "a record"}${p.line === undefined ? "" : ` on line ${p.line}`}: expected ${p.expected}`,
  "reason.read-back-count": (p: { read: number; count: number }) => `${p.read} records read back of ${p.count}`,
  "reason.value-differs": () => "a value differs",
  "error.check-deadline": (p: { origin: string; deadline: number; checked: number; total: number; failed: number }) =>
    `${p.origin} was not checked whole within --deadline ${p.deadline} s: ${p.checked} of ${p.total} requests checked, ${p.failed} of them differ`,
  "error.invalid-data": (p: { count: number }) => `${count(p.count, "error")} in the data; nothing was written`,
  "error.known-problems-invalid": (p: { path: string }) =>
    `${p.path}: expected {"accepted": [{"field", "expected", "value"}, …]} as subjekti validate --accept writes it; write it again with subjekti validate --accept`,
  "error.port-in-use": (p: { host: string; port: number }) =>
    `port ${p.port} on ${p.host} is in use: pass another --port (or --port 0 for any free one)`,
  "error.not-an-address": (p: { host: string; port: number }) =>
    `cannot listen on ${p.host}: not an address of this machine; pass another --host`,
  "error.base-url-path": (p: { base: string; origin: string }) =>
    `--base-url ${p.base}: a base URL is an origin only (such as ${p.origin}): the API answers at /api/subjekti/ on every host, so links under a path would answer 404; give the API a host name of its own (registry.example.hr), see docs/production.md`,
  "error.data-is-file": (p: { data: string }) =>
    `--data ${p.data} is a file: pass the directory that holds the *.json, *.ndjson, *.csv, *.xlsx and *.ods files`,
  "error.out-is-file": (p: { out?: string }) => `--out ${p.out ?? ""} is a file, not a directory: pass another --out, or move the file`,
  "error.out-is-plain": (p: { out: string }) =>
    `--out ${p.out} is a site of plain files (built with --links files): pass --links files to rebuild it, or another --out`,
  "error.out-not-plain": (p: { out: string; base: string }) =>
    `--out ${p.out} already holds something else: with --links files it becomes a link to the built tree (${p.base}.<hash>), switched by one rename; pass an --out that does not exist yet (or remove this one)`,
  "error.export-no-dir": (p: { out: string; dir: string }) =>
    `--out ${p.out}: the directory ${p.dir} does not exist: create it, or pass another --out`,
  "error.export-into-data": (p: { out: string; data: string; name: string }) =>
    `--out ${p.out} is inside --data ${p.data}: the next build would read it beside the sources it came from, every record twice; export elsewhere, then replace the sources with it (subjekti export --out ${p.name}, then move it into ${p.data} and remove the sources it replaces)`,
  "error.over-limits": (p: { detail: Said }) => `${p.detail}; or pass --over-limits warn to build it anyway`,
  "error.source-date-epoch": (p: { epoch: string }) =>
    `SOURCE_DATE_EPOCH is "${p.epoch}": expected whole seconds since 1970 (such as 1700000000), or unset it`,
  "error.feed-snapshot-missing": (p: { state: string; snapshot: string; detail: string; changes: string }) =>
    `${p.state} names the snapshot ${p.snapshot}, which cannot be read (${p.detail}): remove ${p.changes} to start a new change feed`,
  "error.feed-refused": (p: { where: string; detail: string }) =>
    `${p.where}: ${p.detail}: the previous change feed is refused; mend that site, pass --previous with another, or remove its changes/ directory to start a new feed`,
  "error.feed-unreachable": (p: { url: string; detail: string }) =>
    `cannot read the previous change feed at ${p.url}: ${p.detail}; pass --previous with a reachable site or directory`,
  "error.feed-status": (p: { url: string; status: number }) =>
    `${p.url} answered ${p.status}: pass --previous with the live site's origin (such as https://registry.example.hr)`,
  "error.feed-state": (p: { where: string; detail: string }) =>
    `${p.where}: not a change feed state this version reads (${p.detail}): remove it to start a new change feed`,
  "error.feed-mismatch": (p: { where: string; version: string; snapshot: string; actual: string }) =>
    `${p.where} names version ${p.version}… but its snapshot ${p.snapshot} hashes to ${p.actual}…: the previous feed is damaged; restore it, or remove its changes/ directory to start a new feed`,
  "error.sync-refused": (p: { where: string; detail: string }) => `${p.where}: ${p.detail}: cannot sync; the local copy is left as it was`,
  "error.sync-snapshot-status": (p: { url: string; status: number }) =>
    `the snapshot ${p.url} answered ${p.status}: cannot sync; try again once the site is whole`,
  "error.sync-mismatch": (p: { url: string; written: string; version: string }) =>
    `the snapshot ${p.url} hashes to ${p.written}…, not the state's version ${p.version}…: the site is inconsistent (mid-deploy?); the local copy is left as it was, try again later`,
  "error.sync-unreachable": (p: { url: string; detail: string }) => `cannot reach ${p.url}: ${p.detail}`,
  "error.untrusted-certificate": (p: { url: string; detail: string }) =>
    `cannot reach ${p.url}: ${p.detail}: trust its CA with --ca <file> (PEM), or skip the certificate check with --insecure`,
  "error.sync-no-feed": (p: { url: string; status: number }) =>
    `${p.url} answered ${p.status}: is this the site's origin, and was it built with its change feed?`,
  "error.sync-bad-state": (p: { url: string; detail: string }) => `${p.url}: not a change feed state this version reads (${p.detail})`,
  "error.unusable-site": (p: { dir: string; problem: string; again: boolean }) =>
    `${p.dir} has no usable site (${p.problem}): run \`npm run build\` ${p.again ? "again" : "first"}`,
  "error.no-built-site": (p: { dir: string; detail: string }) =>
    `${p.dir} holds no built site (${p.detail}): pass --dir <the built site>, or run \`npm run build\` first`,
  "error.env-port": (p: { text: string; detail: Said }) => `PORT=${p.text} in the environment: ${p.detail}; unset it or pass --port`,
  "error.env-base-url": (p: { variable: string; text: string; detail: Said }) =>
    `${p.variable}=${p.text} in the environment (the links' origin unless --base-url is given): ${p.detail}; set it to the site's address or pass --base-url`,
  "error.unreachable": (p: { where: string; connect?: string | undefined; detail: string; hint: Said }) =>
    `${p.where}${p.connect === undefined ? "" : ` (connecting to ${p.connect})`}: ${p.detail}: ${p.hint}`,
  // What to look at when a deployment cannot be reached (send-request.ts connectionHint), by the error's code.
  "hint.connect-certificate": () => "trust its CA with --ca <file> (PEM), or skip the certificate check with --insecure",
  "hint.connect-protocol": () => "is it http rather than https (or the other way round)?",
  "hint.connect-refused": () => "is the server running, and on this port?",
  "hint.connect-host": () => "check the host name (or send the requests elsewhere with --connect host:port)",
  "hint.connect-other": () => "is the server up and reachable from here?",
  "error.not-url": (p: { url: string }) => `"${p.url}" is not a URL: pass the deployment's address, such as https://example.org`,
  "error.not-http": (p: { url: string }) => `"${p.url}" is not an http or https URL`,
  "error.site-cannot-answer": (p: { target: string; detail: string }) => `the built site cannot answer ${p.target}: ${p.detail}`,
  "error.ca-unreadable": (p: { ca: string; detail: string }) =>
    `--ca ${p.ca}: cannot read it (${p.detail}): pass a PEM file of certificates`,
  "error.ca-not-pem": (p: { ca: string }) => `--ca ${p.ca}: no PEM certificate in it (expected -----BEGIN CERTIFICATE-----)`,
  "error.check-failed": (p: { failed: number; total: number; origin: string; dir: string }) =>
    `${p.failed} of ${p.total} requests to ${p.origin} differ from ${p.dir}`,
  "error.check-not-from-files": (p: { count: number; origin: string }) =>
    `${p.count} answers of ${p.origin} that nginx should send from files came from subjekti serve: regenerate the nginx configuration (subjekti nginx) and reload nginx`,
  "error.check-stale-nginx": (p: { origin: string; dir: string }) =>
    `the nginx configuration of ${p.origin} was generated for another build than ${p.dir}: regenerate it with subjekti nginx and reload nginx (nginx -t && nginx -s reload)`,
  "error.nginx-root": (p: { dir: string }) =>
    `--dir ${p.dir}: nginx's root cannot hold spaces, quotes, braces, ; $ or \\ here; move the site`,
  "error.tls-needs-certificate": (p: { listen: string }) =>
    `--listen '${p.listen}' needs --ssl-certificate <file> and --ssl-certificate-key <file>`,
  "error.tls-needs-listen": (p: { listen: string }) =>
    `--ssl-certificate and --ssl-certificate-key need a --listen with ssl (such as '443 ssl'), not '${p.listen}'`,
};
