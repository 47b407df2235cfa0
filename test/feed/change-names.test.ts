/**
 * The change feed names the institutions a change added, removed and changed, for people: the Atom
 * entry read by a feed parser (@rowanmanning/feed-parser, as a reader would) and by a strict XML
 * parser (saxes: well-formed, nothing injected), and `subjekti sync`'s line in English and
 * Croatian, its --json unchanged. Hostile names (markup, `]]>`, control characters) stay text.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseFeed } from "@rowanmanning/feed-parser";
import { SaxesParser } from "saxes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NAME_LENGTH, NAMED_ENTRIES, nameOfRecord, namedRecent } from "../../src/feed/change-names.ts";
import { type FeedState, parseState } from "../../src/feed/feed-format.ts";
import { startPreview } from "../../src/serve/preview-server.ts";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";
import { build } from "../site/built-site.ts";

type Subject = Record<string, unknown> & { id: number; naziv_subjekta: string };

const HOSTILE = 'Škola <b>&amp; "]]> \u0007'; // markup, an entity, a CDATA end, a control character

/** Every element's text, in order; throws where the XML is not well-formed. */
function texts(xml: string, name: string): string[] {
  const parser = new SaxesParser({ xmlns: true });
  const found: string[] = [];
  let inside = false;
  parser.on("error", (error) => {
    throw error;
  });
  parser.on("opentag", (tag) => {
    inside = tag.local === name;
    if (inside) found.push("");
  });
  parser.on("text", (text) => {
    if (inside) found[found.length - 1] += text;
  });
  parser.on("closetag", () => void (inside = false));
  parser.write(xml).close();
  return found;
}

describe("the institutions a change names", () => {
  let root: string;
  let preview: Awaited<ReturnType<typeof startPreview>> | undefined;
  let subjects: Subject[] = [];

  beforeAll(async () => {
    subjects = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[]).slice(0, 40);
    root = await tempDir("subjekti-names-");
    await mkdir(join(root, "data"));
  });
  afterAll(async () => {
    await preview?.close();
    await rm(root, { recursive: true, force: true });
  });

  const buildList = async (list: readonly Subject[], epoch: number): Promise<void> => {
    await writeFile(join(root, "data", "subjekti.json"), JSON.stringify(list));
    await build(join(root, "data"), join(root, "site"), {
      feed: true,
      cacheDir: null,
      sourceDateEpoch: String(epoch),
      baseUrl: "https://r.example",
    });
  };

  it("the Atom entry and sync's line name what was added, removed and changed (the first five, then a count), escaped; --json as it was", async () => {
    await buildList(subjects, 1_700_000_000);
    preview = await startPreview({ dir: join(root, "site"), port: 0, host: "127.0.0.1" });
    const origin = new URL(preview.url).origin;
    const copies = { en: join(root, "en.ndjson"), hr: join(root, "hr.ndjson"), json: join(root, "json.ndjson") };
    for (const copy of Object.values(copies)) expect((await runCli(["sync", origin, copy])).code).toBe(0);

    // Seven renamed (one to a hostile name), the first removed, one added at the end.
    const next = subjects.slice(1).map((s, i) => (i < 7 ? { ...s, naziv_subjekta: i === 0 ? HOSTILE : `${s.naziv_subjekta} (novo)` } : s));
    const added = { ...(subjects[39] as Subject), id: 99_999, jedinstvena_oznaka: "99999", naziv_subjekta: "Nova ustanova" };
    await buildList([...next, added], 1_700_086_400);
    const renamed = next.slice(0, 5).map((s) => s.naziv_subjekta);

    const xml = await readFile(join(root, "site", "changes", "feed.atom"), "utf8");
    const summary = [
      "Dodano / added (1): Nova ustanova",
      `Uklonjeno / removed (1): ${subjects[0]?.naziv_subjekta}`,
      `Promijenjeno / changed (7): ${renamed.join("; ").replace("\u0007", "\ufffd")} i još 2 / and 2 more`,
    ].join("\n");
    // Well-formed, and the hostile name is text in it: no element came from it.
    expect(texts(xml, "summary")[0]).toBe(summary);
    expect(texts(xml, "b")).toEqual([]);
    // As a feed reader shows it.
    const [entry] = parseFeed(xml).items;
    expect(entry?.title).toBe("Promjena 2 / Change 2: dodano 1, uklonjeno 1, promijenjeno 7 / 1 added, 1 removed, 7 changed");
    expect(entry?.description).toBe(summary);
    expect(entry?.url).toBe("https://r.example/changes/2.json");

    // The state keeps them for the feed of later builds.
    const state = JSON.parse(await readFile(join(root, "site", "changes", "state.json"), "utf8")) as FeedState;
    expect(state.history.at(-1)).toMatchObject({ upserts: 8, deletes: 1, added: 1, names: { added: ["Nova ustanova"] } });

    const en = await runCli(["sync", origin, copies.en]);
    expect(en.stdout).toBe(
      [
        "+1 −1 ~7 subjects, sequence 1 → 2",
        "  added: Nova ustanova",
        `  removed: ${subjects[0]?.naziv_subjekta}`,
        // Escaped for the terminal: the bell is shown, not rung.
        `  changed: ${renamed.join("; ").replace("\u0007", "\\u0007")} and 2 more`,
        "",
      ].join("\n"),
    );
    const hr = await runCli(["sync", origin, copies.hr, "--lang", "hr"]);
    expect(hr.stdout).toBe(
      [
        "+1 −1 ~7 subjekata, slijed 1 → 2",
        "  dodano: Nova ustanova",
        `  uklonjeno: ${subjects[0]?.naziv_subjekta}`,
        `  promijenjeno: ${renamed.join("; ").replace("\u0007", "\\u0007")} i još 2`,
        "",
      ].join("\n"),
    );
    const json = await runCli(["sync", origin, copies.json, "--json"]);
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual([
      "url",
      "from",
      "to",
      "version",
      "added",
      "removed",
      "changed",
      "snapshot",
    ]);
  }, 60_000);

  it("a name past NAME_LENGTH is cut by code point; a line without one is named by its id; names stay on the newest entries only", () => {
    const long = "ž".repeat(NAME_LENGTH - 1) + "😀😀";
    const line = new TextEncoder().encode(JSON.stringify({ id: 5, naziv_subjekta: long }));
    expect([...nameOfRecord(5, line)]).toHaveLength(NAME_LENGTH);
    expect(nameOfRecord(5, line).endsWith("ž…")).toBe(true);
    expect(nameOfRecord(7, new TextEncoder().encode('{"id":7,'))).toBe("#7");
    const names = { added: ["a"], removed: [], changed: [] };
    const history = Array.from({ length: NAMED_ENTRIES + 3 }, (_, i) => ({ sequence: i + 1, names }));
    const kept = namedRecent(history);
    expect(kept.filter((e) => "names" in e).map((e) => e.sequence)).toEqual(history.slice(3).map((e) => e.sequence));
  });

  it.each([
    ["names of each kind, a few", { added: ["A"], removed: [], changed: ["B <&>"] }, null],
    ["six names of a kind", { added: ["1", "2", "3", "4", "5", "6"], removed: [], changed: [] }, "history[1].names is not"],
    ["a name that is not text", { added: [1], removed: [], changed: [] }, "history[1].names is not"],
    ["a name past NAME_LENGTH", { added: ["x".repeat(NAME_LENGTH + 1)], removed: [], changed: [] }, "history[1].names is not"],
    ["a kind missing", { added: [], removed: [] }, "history[1].names is not"],
  ])("a state read from another site with %s -> %s", (_, names, refused) => {
    const [A, B] = ["a".repeat(64), "b".repeat(64)];
    const text = JSON.stringify({
      format: 1,
      sequence: 2,
      version: B,
      published: "2026-01-02T00:00:00.000Z",
      count: 1,
      oldest: 2,
      snapshot: { url: `snapshots/${B}.ndjson`, sha256: B, bytes: 1 },
      history: [
        { sequence: 1, published: "2026-01-01T00:00:00.000Z", from_version: null, to_version: A, upserts: 1, deletes: 0 },
        { sequence: 2, published: "2026-01-02T00:00:00.000Z", from_version: A, to_version: B, upserts: 1, deletes: 0, added: 1, names },
      ],
    });
    const state = parseState(text);
    if (refused === null) expect((state as FeedState).history[1]?.names).toEqual(names);
    else expect(state).toMatch(refused);
  });
});
