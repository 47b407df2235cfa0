/**
 * The feed's sequences as Atom (RFC 4287), for people who follow changes in a feed reader: one
 * entry per sequence kept, with its counts and a link to its diff. Made from the state alone.
 */
import { ATOM_PATH, diffName, FEED_DIR, type FeedState } from "./feed-format.ts";

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function atomFeed(state: FeedState, baseUrl: string): string {
  const feedUrl = `${baseUrl}/${ATOM_PATH}`;
  const entries = [...state.history].reverse().map((entry) => {
    const counts =
      entry.from_version === null
        ? `${entry.upserts} subjekata (prva verzija) / ${entry.upserts} subjects (first version)`
        : `+${entry.upserts} / −${entry.deletes}`;
    const link =
      entry.from_version === null ? `${baseUrl}/${FEED_DIR}/${state.snapshot.url}` : `${baseUrl}/${FEED_DIR}/${diffName(entry.sequence)}`;
    return [
      "  <entry>",
      `    <title>Promjena ${entry.sequence} / Change ${entry.sequence}: ${escapeXml(counts)}</title>`,
      `    <id>${escapeXml(`${baseUrl}/${FEED_DIR}/${diffName(entry.sequence)}`)}</id>`,
      `    <updated>${entry.published}</updated>`,
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
    `  <updated>${state.published}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(feedUrl)}"/>`,
    "  <author><name>subjekti</name></author>",
    ...entries,
    "</feed>",
    "",
  ].join("\n");
}
