/**
 * The warnings a maintainer has accepted, kept beside the data (`known-problems.json`, written by
 * `subjekti validate --accept` and reviewed in version control like any lint baseline): the
 * sample's 14 real OIBs whose check digit fails, say. Known warnings are counted in one line; a new
 * one is printed in full, first, and `--strict` fails on new ones only, so a new mistyped OIB is
 * never hidden behind the known ones. A warning is known by its field, its rule and its value, not
 * by where it is: records move when the list is edited.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { msg } from "../../common/messages/message.ts";
import { failure } from "../../common/messages/translate.ts";
import { DataError, kindKey, kindsOf, type KnownCount, type Problem, type ProblemKind } from "./problems.ts";

import { KNOWN_PROBLEMS_FILE } from "./known-problems-file.ts";

export { KNOWN_PROBLEMS_FILE } from "./known-problems-file.ts";

/**
 * An accepted warning as the baseline keeps it: language-neutral, its rule by the message key
 * (`expected.check-digit`), and beside the value the subject it was about (`id`, `naziv_subjekta`)
 * for the reviewer. Only field, rule and value make it known: a baseline written before the
 * subject was named, or a subject renamed since, still matches.
 */
interface Accepted {
  readonly field?: string;
  readonly expected: string;
  readonly value?: string;
  readonly id?: number;
  readonly naziv_subjekta?: string;
}

/** A problem as the baseline keeps it. */
function acceptedOf(p: Problem): Accepted {
  const value = p.value === undefined ? undefined : typeof p.value === "string" ? p.value : JSON.stringify(p.value);
  return {
    ...(p.field === undefined ? {} : { field: p.field }),
    expected: p.expected.key,
    ...(value === undefined ? {} : { value }),
    ...(p.subject === undefined ? {} : { id: p.subject.id, naziv_subjekta: p.subject.name }),
  };
}

export interface KnownProblems {
  /** Where the baseline is, as problems show paths. */
  readonly path: string;
  readonly size: number;
  has(problem: Problem): boolean;
}

const keyOf = (p: Accepted): string => `${p.field ?? ""}\u0000${p.expected}\u0000${p.value ?? ""}`;

/** The baseline kept in `dataDir`, or null when there is none. */
export async function readKnownProblems(dataDir: string): Promise<KnownProblems | null> {
  const path = join(dataDir, KNOWN_PROBLEMS_FILE);
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (text === null) return null;
  let accepted: unknown;
  try {
    accepted = (JSON.parse(text) as { accepted?: unknown }).accepted;
  } catch {
    accepted = undefined;
  }
  if (
    !Array.isArray(accepted) ||
    !accepted.every((a) => typeof a === "object" && a !== null && typeof (a as Accepted).expected === "string")
  ) {
    throw failure("KNOWN_PROBLEMS_INVALID", msg("error.known-problems-invalid", { path }));
  }
  const keys = new Set((accepted as Accepted[]).map(keyOf));
  return { path, size: keys.size, has: (problem) => keys.has(keyOf(acceptedOf(problem))) };
}

/** Writes every warning of `warnings` as accepted (sorted, each once); the number accepted. */
export async function writeKnownProblems(dataDir: string, warnings: readonly Problem[]): Promise<number> {
  const accepted = new Map<string, Accepted>();
  for (const p of warnings) {
    if (p.severity !== "warning") continue;
    const a = acceptedOf(p);
    // The first subject met names a warning accepted twice (one OIB mistyped in two records).
    if (!accepted.has(keyOf(a))) accepted.set(keyOf(a), a);
  }
  const sorted = [...accepted.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, a]) => a);
  const path = join(dataDir, KNOWN_PROBLEMS_FILE);
  const text = `${JSON.stringify({ accepted: sorted }, null, 2)}\n`;
  // Hidden while it is written: a build reading --data meanwhile never takes it for a file it ignores.
  const temporary = join(dataDir, `.${KNOWN_PROBLEMS_FILE}.tmp-${process.pid}`);
  await writeFile(temporary, text);
  await rename(temporary, path);
  return sorted.length;
}

/** How a read is done under a baseline: every warning kept, so each can be judged; --strict judged after the read. */
export function readUnder<T extends { readonly strict: boolean; readonly allProblems?: boolean }>(
  known: KnownProblems | null,
  options: T,
): T {
  return known === null ? options : { ...options, strict: false, allProblems: true };
}

/** What a read's warnings come to under a baseline: the new ones (every one), and how many were known. */
export interface JudgedWarnings {
  readonly warnings: readonly Problem[];
  readonly kinds: readonly ProblemKind[];
  readonly known?: KnownCount;
}

/**
 * The new warnings apart from the known; with `strict`, new warnings are errors (a DataError, so
 * nothing is written). Without a baseline, the read's own warnings as they were.
 */
export function judgeWarnings(
  known: KnownProblems | null,
  strict: boolean,
  read: { readonly warnings: readonly Problem[]; readonly kinds: readonly ProblemKind[] },
): JudgedWarnings {
  if (known === null) return read;
  const fresh = read.warnings.filter((p) => !known.has(p));
  const count = read.warnings.length - fresh.length;
  if (strict && fresh.length > 0) throw new DataError(fresh.map((p) => ({ ...p, severity: "error" as const })));
  return { warnings: fresh, kinds: kindsOf(fresh), known: { count, path: known.path } };
}

/**
 * A DataError judged as a read's warnings are: the accepted warnings leave its problems and kinds
 * and are counted (the error's `known`), so a run with one real error shows that error, not the
 * 14 accepted warnings again as if new; with `strict`, a new warning is an error as it would be
 * without the other error. Every kind's count stays exact (a block keeps only a few errors of a
 * kind, so the kinds are adjusted, not counted again). Without a baseline, the error as it was.
 */
export function judgeDataError(known: KnownProblems | null, strict: boolean, error: DataError): DataError {
  if (known === null) return error;
  const kinds = new Map(error.kinds.map((k) => [k.key, { ...k }]));
  const less = (p: Problem): void => {
    const kind = kinds.get(kindKey(p));
    if (kind === undefined) return;
    kind.count--;
    kind.kept--;
    if (kind.count <= 0) kinds.delete(kind.key);
  };
  const kept: Problem[] = [];
  let count = 0;
  for (const p of error.problems) {
    if (p.severity !== "warning") kept.push(p);
    else if (known.has(p)) {
      count++;
      less(p);
    } else if (!strict) kept.push(p);
    else {
      less(p);
      const made = { ...p, severity: "error" as const };
      kept.push(made);
      const [kind] = kindsOf([made]) as [ProblemKind];
      const same = kinds.get(kind.key);
      if (same === undefined) kinds.set(kind.key, kind);
      else {
        same.count++;
        same.kept++;
      }
    }
  }
  return new DataError(kept, [...kinds.values()], { count, path: known.path });
}
