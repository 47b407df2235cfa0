/** The Atom feed made from a state: each entry links to what its sequence names, and no value can add markup. */
import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { atomFeed } from "../../src/feed/atom-feed.ts";
import type { FeedEntry, FeedState } from "../../src/feed/feed-format.ts";

const A = "a".repeat(64);
const B = "b".repeat(64);
const C = "c".repeat(64);

function stateOf(history: FeedEntry[]): FeedState {
  const last = history.at(-1) as FeedEntry;
  return {
    format: 1,
    sequence: last.sequence,
    version: last.to_version,
    published: last.published,
    count: 3,
    oldest: 2,
    snapshot: { url: `snapshots/${last.to_version}.ndjson`, sha256: last.to_version, bytes: 10 },
    history,
  };
}

const entry = (
  sequence: number,
  from: string | null,
  to: string,
  published = "2026-01-0" + String(sequence) + "T00:00:00.000Z",
): FeedEntry => ({
  sequence,
  published,
  from_version: from,
  to_version: to,
  upserts: 1,
  deletes: 0,
});

/** The document's elements as [name, attributes, text]; throws where it is not well-formed XML. */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; text: string }[] {
  const parser = new SaxesParser({ xmlns: true });
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const open: { text: string }[] = [];
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    const element = {
      name: tag.local,
      attributes: Object.fromEntries(Object.entries(tag.attributes).map(([k, a]) => [k, a.value])),
      text: "",
    };
    elements.push(element);
    open.push(element);
  });
  parser.on("text", (text) => {
    const top = open.at(-1);
    if (top !== undefined) top.text += text;
  });
  parser.on("closetag", () => void open.pop());
  parser.write(xml).close();
  return elements;
}

describe("atomFeed", () => {
  it("the entry of sequence 1 (no diff) -> a link to the snapshot of the version it made, not the current one", () => {
    const xml = atomFeed(stateOf([entry(1, null, A), entry(2, A, B), entry(3, B, C)]), "https://registry.example.hr");
    const links = parseXml(xml)
      .filter((e) => e.name === "link" && e.attributes["rel"] === "alternate")
      .map((e) => e.attributes["href"]);
    expect(links).toEqual([
      "https://registry.example.hr/changes/3.json",
      "https://registry.example.hr/changes/2.json",
      `https://registry.example.hr/changes/snapshots/${A}.ndjson`,
    ]);
  });

  it("markup, quotes and XML-illegal characters in every string -> escaped text, one entry a sequence", () => {
    const hostile = '"/><entry><link href="javascript:alert(1)"/></entry><x a="\u0001\ud800';
    const xml = atomFeed(stateOf([entry(1, null, A, hostile), entry(2, A, B, hostile)]), `https://h.example${hostile}`);
    const elements = parseXml(xml);
    expect(elements.filter((e) => e.name === "entry")).toHaveLength(2);
    expect(elements.filter((e) => e.name === "updated").map((e) => e.text)).toEqual(
      Array(3).fill(hostile.replace(/[\u0001\ud800]/gu, "\ufffd")),
    );
    expect(elements.some((e) => e.attributes["href"] === "javascript:alert(1)")).toBe(false);
  });
});
