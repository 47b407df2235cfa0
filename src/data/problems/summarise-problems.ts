/**
 * Many problems as a maintainer can read them. A spreadsheet saved the Croatian way breaks the
 * same rule on every row: thousands of excellent lines are useless together. So problems are
 * grouped by kind (severity, field, rule): each kind prints its first few lines and
 * `… and 5,753 more like this`, a spreadsheet form one line with its count and first locations,
 * and a table of kinds and counts ends the list. `--all-problems` prints every line; `--json`
 * prints every problem as one JSON line, for tools.
 */
import { formatMore, kindKey, sayProblem, type Problem, showGot, UNKNOWN_FIELD } from "./problems.ts";
import { formatLocation } from "./problem-parts.ts";
import type { Translator } from "../../common/messages/message.ts";
import { ENGLISH } from "../../common/messages/translate.ts";
import { FIELD_NAMES } from "../rules/subject-fields.ts";

/** Lines of one kind printed before the rest are counted. */
export const FIRST_OF_KIND = 5;
/** Locations a spreadsheet form's one line names. */
const FORM_LOCATIONS = 3;

interface Kind {
  readonly first: Problem;
  readonly shown: Problem[];
  count: number;
}

/** The key of a problem's kind: the collector's (problems.ts), so `countOf` gives its exact count. */
function kindOf(p: Problem): string {
  return kindKey(p);
}

/** One line for every problem of a spreadsheet form: the count, the first one in full, then where the next ones are. */
function formLine(kind: Kind, tr: Translator): string {
  const { first, shown, count } = kind;
  return tr.text("line.form", {
    where: formatLocation(first),
    warning: first.severity === "warning",
    ...(first.field === undefined ? {} : { field: first.field }),
    count,
    form: first.form === undefined ? "" : tr.say(first.form),
    expected: tr.say(first.expected),
    ...(first.value === undefined ? {} : { got: showGot(first.value, tr) }),
    ...(first.hint === undefined ? {} : { hint: tr.say(first.hint) }),
    also: shown.slice(1).map(formatLocation),
    more: count - shown.length,
  });
}

export interface SummaryOptions {
  /** Every line, nothing summarised. */
  readonly all?: boolean;
  /**
   * The exact count of a problem's kind when `problems` holds only the first few of each (a
   * bounded collector's); by default the problems are counted.
   */
  readonly countOf?: (first: Problem) => number | undefined;
  /** The language of the lines (English by default). */
  readonly tr?: Translator;
}

/** The problems as printed lines: every one when `all`, else grouped by kind with the rest counted and a table of kinds at the end. */
export function summariseProblems(problems: readonly Problem[], options: SummaryOptions = {}): string[] {
  const tr = options.tr ?? ENGLISH;
  if (options.all === true) return problems.map((p) => sayProblem(p, tr));
  const kinds = new Map<string, Kind>();
  for (const p of problems) {
    const key = kindOf(p);
    let kind = kinds.get(key);
    if (kind === undefined) kinds.set(key, (kind = { first: p, shown: [], count: 0 }));
    kind.count++;
    if (kind.shown.length < (p.form === undefined ? FIRST_OF_KIND : FORM_LOCATIONS + 1)) kind.shown.push(p);
  }
  if (options.countOf !== undefined) for (const kind of kinds.values()) kind.count = Math.max(kind.count, options.countOf(kind.first) ?? 0);
  const lines: string[] = [];
  let summarised = false;
  for (const kind of kinds.values()) {
    if (kind.first.form !== undefined) {
      lines.push(formLine(kind, tr));
      summarised ||= kind.count > 1;
      continue;
    }
    lines.push(...kind.shown.map((p) => sayProblem(p, tr)));
    if (kind.count > kind.shown.length) {
      // The collector's own line for the rest: `… and 5,753 more like this: oib: expected 11 digits`.
      const { severity, field, expected } = kind.first;
      const shownField = field === undefined ? {} : { field: (FIELD_NAMES as readonly string[]).includes(field) ? field : UNKNOWN_FIELD };
      lines.push(
        formatMore({ key: kindKey(kind.first), severity, ...shownField, expected, count: kind.count, kept: kind.shown.length }, tr) ?? "",
      );
      summarised = true;
    }
  }
  if (summarised) lines.push(...kindTable([...kinds.values()], tr));
  return lines;
}

/** The closing table: each kind's count, severity, field and rule, most frequent first. */
function kindTable(kinds: readonly Kind[], tr: Translator): string[] {
  const rows = [...kinds]
    .sort((a, b) => b.count - a.count)
    .map((k) => [
      tr.text("table.count", { count: k.count }),
      tr.text(k.first.severity === "warning" ? "table.warning" : "table.error"),
      k.first.field ?? tr.text("table.file"),
      k.first.form === undefined
        ? tr.text("table.rule", { expected: tr.say(k.first.expected) })
        : tr.text("table.form-rule", { form: tr.say(k.first.form), expected: tr.say(k.first.expected) }),
    ]);
  const width = (c: number): number => Math.max(...rows.map((r) => (r[c] ?? "").length));
  const [w0, w1, w2] = [width(0), width(1), width(2)];
  return [
    tr.text("table.title"),
    ...rows.map(([n, s, f, e]) => `  ${(n ?? "").padStart(w0)}  ${(s ?? "").padEnd(w1)}  ${(f ?? "").padEnd(w2)}  ${e}`),
  ];
}

/** Every problem as one JSON line (its parts, and `where` as a problem line shows it), for tools. */
export function problemsAsJsonLines(problems: readonly Problem[]): string[] {
  return problems.map((p) => JSON.stringify({ where: formatLocation(p), ...p }));
}
