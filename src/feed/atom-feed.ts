/**
 * The feed's sequences as Atom (RFC 4287), for people who follow changes in a feed reader: one
 * entry per sequence kept, with its counts, the institutions it added, removed and changed by name
 * (the first few of each, then a count: change-names.ts), and a link to its diff (the first
 * sequence, which has none, to the snapshot of the version it made). In Croatian and English side
 * by side, as the whole feed is: a feed has one audience, not a locale. Made from the state alone;
 * every value is escaped, though the state was validated, since a state carried from another site
 * (and every name in it) is its input.
 */
import { listNames } from "./change-names.ts";
import { ATOM_PATH, diffName, FEED_DIR, type FeedEntry, type FeedState, snapshotName } from "./feed-format.ts";

/** Text for XML: markup characters as references, and what XML 1.0 cannot hold at all (C0 controls but tab and newline, U+FFFE, U+FFFF, lone surrogates) as U+FFFD. */
const escapeXml = (value: string | number): string =>
  String(value)
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
    // With the u flag a surrogate pair is one code point: the range matches lone halves alone.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/gu, "\ufffd");

/** An entry's counts for its title: added, removed and changed apart when the entry knows which upserts were new. */
function countsOf(entry: FeedEntry): string {
  if (entry.from_version === null) return `${entry.upserts} subjekata (prva verzija) / ${entry.upserts} subjects (first version)`;
  if (entry.added === undefined)
    return `${entry.upserts} dodano ili promijenjeno, ${entry.deletes} uklonjeno / ${entry.upserts} added or changed, ${entry.deletes} removed`;
  const counts: [number, string, string][] = [
    [entry.added, "dodano", "added"],
    [entry.deletes, "uklonjeno", "removed"],
    [entry.upserts - entry.added, "promijenjeno", "changed"],
  ];
  const shown = counts.filter(([n]) => n > 0);
  return `${shown.map(([n, hr]) => `${hr} ${n}`).join(", ")} / ${shown.map(([n, , en]) => `${n} ${en}`).join(", ")}`;
}

/** An entry's summary: a line for each kind of change, its institutions by name; the counts alone where the state kept no names. */
function summaryOf(entry: FeedEntry): string {
  const { names, added } = entry;
  if (entry.from_version === null || names === undefined || added === undefined) return countsOf(entry);
  const more = (n: number): string => ` i još ${n} / and ${n} more`;
  const rows: [string, readonly string[], number][] = [
    ["Dodano / added", names.added, added],
    ["Uklonjeno / removed", names.removed, entry.deletes],
    ["Promijenjeno / changed", names.changed, entry.upserts - added],
  ];
  return rows
    .filter(([, , total]) => total > 0)
    .map(([label, list, total]) => `${label} (${total}): ${listNames(list, total, more)}`)
    .join("\n");
}

/** The Atom document of `state`'s history, newest first, its links on `baseUrl`. */
export function atomFeed(state: FeedState, baseUrl: string): string {
  const feedUrl = `${baseUrl}/${ATOM_PATH}`;
  const entries = [...state.history].reverse().map((entry) => {
    const counts = countsOf(entry);
    const link = `${baseUrl}/${FEED_DIR}/${entry.from_version === null ? snapshotName(entry.to_version) : diffName(entry.sequence)}`;
    return [
      "  <entry>",
      `    <title>${escapeXml(`Promjena ${entry.sequence} / Change ${entry.sequence}: ${counts}`)}</title>`,
      `    <id>${escapeXml(`${baseUrl}/${FEED_DIR}/${diffName(entry.sequence)}`)}</id>`,
      `    <updated>${escapeXml(entry.published)}</updated>`,
      `    <link rel="alternate" type="application/json" href="${escapeXml(link)}"/>`,
      `    <summary>${escapeXml(summaryOf(entry))}</summary>`,
      "  </entry>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    "  <title>Registar subjekata: promjene / Registry of Subjects: changes</title>",
    `  <id>${escapeXml(feedUrl)}</id>`,
    `  <updated>${escapeXml(state.published)}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(feedUrl)}"/>`,
    "  <author><name>subjekti</name></author>",
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
