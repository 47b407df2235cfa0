/**
 * "Did you mean …?" for a misspelt field or column name: the known name at the smallest edit
 * distance, compared case-insensitively with spaces and dashes read as underscores, because
 * spreadsheets often title-case headers or write `naziv subjekta`.
 */

/** Further than this and a suggestion is more confusing than none (`naziv` is not `id`). */
const MAX_DISTANCE = 3;

function normalise(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/** Levenshtein distance, one row at a time; names are short, so this is cheap. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitute, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known name nearest to `name`, or undefined when none is close enough to be a likely typo. */
export function nearestName(name: string, known: readonly string[], maxDistance = MAX_DISTANCE): string | undefined {
  const wanted = normalise(name);
  // A shortened name (`naziv`, `datum`) is a column someone abbreviated.
  if (wanted.length >= 4) {
    const extended = known.filter((candidate) => candidate.startsWith(wanted));
    if (extended.length === 1) return extended[0];
  }
  let best: string | undefined;
  // Short names allow fewer edits: `naziv` is three edits from `razina`, which helps no one.
  let bestDistance = Math.min(maxDistance, Math.max(1, Math.floor(wanted.length / 3))) + 1;
  for (const candidate of known) {
    const distance = editDistance(wanted, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
