/**
 * The catalogue's Turtle and JSON-LD for hostile metadata (what the descriptor's schema refuses,
 * given straight to the writer, and a hostile base URL): each parsed by a real RDF parser is the
 * graph the triples say, no more and no less. The writer makes no blank node, so the graphs are
 * ground: isomorphic exactly when their sets of triples are equal, and a blank node in either is
 * itself an injection.
 */
import { Parser } from "n3";
import { describe, expect, it } from "vitest";
import type { Download } from "../../../src/core/download-files.ts";
import { catalogTriples } from "../../../src/site/docs/dcat-catalog.ts";
import type { DatasetMetadata } from "../../../src/site/docs/dataset-metadata.ts";
import { expand, safeIri, toJsonLd, toTurtle, type Triple } from "../../../src/site/docs/rdf-graph.ts";
import { jsonLdQuads, tripleSet } from "./rdf-quads.ts";

/** Each character an IRI may not hold, and Turtle's ways out of an IRI and a string. */
const HOSTILE = ' "<>{}|^`\\\u0000\u001f\u007f\u0085\u202e\ud800\ufffe';
const INJECTION = "https://evil.example/x> . <https://evil.example/d> <http://www.w3.org/ns/dcat#distribution> <https://evil.example/y";

const metadata: DatasetMetadata = {
  id: `https://registry.example.hr/dataset${HOSTILE}`,
  title: `Title """${HOSTILE}\n\r'''`,
  description: `Description \\u0022 ${HOSTILE}`,
  hr: { title: `Naslov${HOSTILE}`, description: "Opis\ud800" },
  contributors: [
    { title: `Pub${HOSTILE}`, path: `https://pub.example/${HOSTILE}`, email: "a@b.example", roles: ["publisher"] },
    { title: "Contact", email: "c@d.example", roles: ["contact"] },
  ],
  sources: [
    { title: "injection", path: INJECTION },
    { title: "braces", path: `https://src.example/{a}|b^c\`d e"f` },
  ],
  licenses: [{ title: `Licence${HOSTILE}`, path: `https://licence.example/by 4.0/${HOSTILE}` }],
};

const downloads: Download[] = [
  {
    format: "ndjson",
    path: "/downloads/subjekti.ndjson",
    immutablePath: "/downloads/subjekti-ab.ndjson",
    bytes: 10,
    sha256: "ab".repeat(32),
  },
];

const triples = catalogTriples(metadata, {
  baseUrl: `https://base.example/a b>"c`,
  count: 3,
  downloads,
  published: new Date(1_700_000_000_000),
});

/** The graph the triples mean: the same strings, made from the triples without any writer. */
function intended(graph: readonly Triple[]): string[] {
  const xsd = (name: string): string => expand(name);
  const LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";
  const STRING = "http://www.w3.org/2001/XMLSchema#string";
  return [
    ...new Set(
      graph.map(({ subject, predicate, object }) => {
        const o =
          "iri" in object
            ? `NamedNode:${safeIri(object.iri)}`
            : `"${JSON.stringify(object.value.replace(/[\ud800-\udfff]/gu, "\ufffd"))}"@${object.lang ?? ""}^^${
                object.lang !== undefined ? LANG_STRING : object.datatype !== undefined ? xsd(object.datatype) : STRING
              }`;
        return `NamedNode:${safeIri(subject)} ${expand(predicate)} ${o}`;
      }),
    ),
  ].sort();
}

describe("the catalogue for hostile metadata", () => {
  it("Turtle parsed by n3 -> exactly the intended triples (no injected triple, no blank node)", () => {
    const parsed = tripleSet(new Parser().parse(toTurtle(triples)));
    expect(parsed.filter((t) => t.includes("BlankNode"))).toEqual([]);
    expect(parsed).toEqual(intended(triples));
  });

  it("JSON-LD parsed by jsonld-streaming-parser -> the same graph as the Turtle", async () => {
    const jsonld = tripleSet(await jsonLdQuads(JSON.stringify(toJsonLd(triples))));
    expect(jsonld.filter((t) => t.includes("BlankNode"))).toEqual([]);
    expect(jsonld).toEqual(tripleSet(new Parser().parse(toTurtle(triples))));
  });

  it("the injected source URL stays one object of dct:relation; the distribution stays the dataset's", () => {
    const parsed = new Parser().parse(toTurtle(triples));
    const distributions = parsed.filter((q) => q.predicate.value === "http://www.w3.org/ns/dcat#distribution");
    expect(distributions.map((q) => q.subject.value)).toEqual([safeIri(metadata.id as string)]);
    const relations = parsed.filter((q) => q.predicate.value === "http://purl.org/dc/terms/relation").map((q) => q.object.value);
    expect(relations).toContain(safeIri(INJECTION));
    expect(parsed.some((q) => q.subject.value.startsWith("https://evil.example"))).toBe(false);
  });

  it.each([
    ["a space", "https://a.example/b c", "https://a.example/b%20c"],
    ["markup and quotes", 'https://a.example/<"{|}^`\\>', "https://a.example/%3C%22%7B%7C%7D%5E%60%5C%3E"],
    ["a C1 control and a bidi override", "https://a.example/\u0085\u202e", "https://a.example/%C2%85%E2%80%AE"],
    ["a lone surrogate", "https://a.example/\ud800", "https://a.example/%EF%BF%BD"],
    ["letters an IRI holds (č, 日本, %20 already encoded)", "https://a.example/č/日本?q=%20#f", "https://a.example/č/日本?q=%20#f"],
  ])("safeIri: %s -> percent-encoded UTF-8 only where an IRI may not hold it", (_name, iri, safe) => {
    expect(safeIri(iri)).toBe(safe);
  });
});
