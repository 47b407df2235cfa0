/**
 * The feed's sequences as Atom (RFC 4287), for people who follow changes in a feed reader: one
 * entry per sequence kept, with its counts and a link to its diff (the first sequence, which has
 * none, to the snapshot of the version it made). Made from the state alone; every value is escaped,
 * though the state was validated, since a state carried from another site is its input.
 */
import { ATOM_PATH, diffName, FEED_DIR, type FeedState, snapshotName } from "./feed-format.ts";

/** Text for XML: markup characters as references, and what XML 1.0 cannot hold at all (C0 controls but tab and newline, U+FFFE, U+FFFF, lone surrogates) as U+FFFD. */
const escapeXml = (value: string | number): string =>
  String(value)
    .replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
    // With the u flag a surrogate pair is one code point: the range matches lone halves alone.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/gu, "\ufffd");

/** The Atom document of `state`'s history, newest first, its links on `baseUrl`. */
export function atomFeed(state: FeedState, baseUrl: string): string {
  const feedUrl = `${baseUrl}/${ATOM_PATH}`;
  const entries = [...state.history].reverse().map((entry) => {
    const counts =
      entry.from_version === null
        ? `${entry.upserts} subjekata (prva verzija) / ${entry.upserts} subjects (first version)`
        : `+${entry.upserts} / −${entry.deletes}`;
    const link = `${baseUrl}/${FEED_DIR}/${entry.from_version === null ? snapshotName(entry.to_version) : diffName(entry.sequence)}`;
    return [
      "  <entry>",
      `    <title>${escapeXml(`Promjena ${entry.sequence} / Change ${entry.sequence}: ${counts}`)}</title>`,
      `    <id>${escapeXml(`${baseUrl}/${FEED_DIR}/${diffName(entry.sequence)}`)}</id>`,
      `    <updated>${escapeXml(entry.published)}</updated>`,
      `    <link rel="alternate" type="application/json" href="${escapeXml(link)}"/>`,
      `    <summary>${escapeXml(`upserts ${entry.upserts}, deletes ${entry.deletes}, version ${entry.to_version}`)}</summary>`,
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
