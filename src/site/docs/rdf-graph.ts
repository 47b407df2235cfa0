/**
 * A small RDF graph written two ways, Turtle and JSON-LD, from the same triples: the DCAT
 * catalogue is published in both, and they cannot say different things (the test parses both back
 * into one graph). Every node is an IRI (no blank nodes), so two graphs are equal exactly when
 * their sets of triples are. An IRI comes from the descriptor and the base URL, so what an IRI may
 * not hold is percent-encoded in both writings alike: written raw, a `>` in a source's URL ended the
 * IRI in Turtle and injected triples, and a space made the catalogue unparseable.
 */

/** An object of a triple: an IRI, or a literal with a language or a datatype. */
export type Term = { readonly iri: string } | { readonly value: string; readonly lang?: string; readonly datatype?: string };

export interface Triple {
  readonly subject: string;
  /** A prefixed name (`dct:title`) of one of PREFIXES, or `a` for rdf:type. */
  readonly predicate: string;
  readonly object: Term;
}

export const PREFIXES: Readonly<Record<string, string>> = {
  dcat: "http://www.w3.org/ns/dcat#",
  dct: "http://purl.org/dc/terms/",
  foaf: "http://xmlns.com/foaf/0.1/",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  skos: "http://www.w3.org/2004/02/skos/core#",
  spdx: "http://spdx.org/rdf/terms#",
  vcard: "http://www.w3.org/2006/vcard/ns#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
};

/** The full IRI of a prefixed name (or of `a`). */
export function expand(name: string): string {
  if (name === "a") return `${PREFIXES["rdf"]}type`;
  const colon = name.indexOf(":");
  const base = PREFIXES[name.slice(0, colon)];
  if (base === undefined) throw new Error(`no prefix for ${name}`);
  return base + name.slice(colon + 1);
}

/**
 * Characters an IRI may not hold: what Turtle's IRIREF forbids (controls, space, `<>"{}|^` and
 * backtick, backslash) and what RFC 3987 leaves out of `ucschar` or forbids (DEL, the C1
 * controls, the bidi formatting characters, noncharacters, lone surrogates).
 */
const NOT_IN_IRI = /[\u0000-\u0020"<>\\^`{|}\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/gu;
const utf8 = new TextEncoder();

/** `iri` with each character an IRI may not hold percent-encoded as its UTF-8 bytes (a lone surrogate as U+FFFD's). */
export function safeIri(iri: string): string {
  return iri.replace(NOT_IN_IRI, (c) => [...utf8.encode(c)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""));
}

/** Text as both writings carry it: a lone surrogate (which UTF-8 cannot hold, and JSON keeps as an escape) as U+FFFD. */
const wellFormed = (text: string): string => text.replace(/[\ud800-\udfff]/gu, "\ufffd");

/** A Turtle string literal: quoted, with the characters Turtle's grammar forbids raw escaped. */
function turtleString(text: string): string {
  return `"${wellFormed(text).replace(/[\\"\n\r]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r" })[c] ?? c)}"`;
}

function turtleTerm(term: Term): string {
  if ("iri" in term) return `<${safeIri(term.iri)}>`;
  if (term.lang !== undefined) return `${turtleString(term.value)}@${term.lang}`;
  if (term.datatype !== undefined) return `${turtleString(term.value)}^^${term.datatype}`;
  return turtleString(term.value);
}

/** The subjects in the order they first appear, each with its triples in order. */
function bySubject(triples: readonly Triple[]): Map<string, Triple[]> {
  const groups = new Map<string, Triple[]>();
  for (const triple of triples) {
    const group = groups.get(triple.subject);
    if (group === undefined) groups.set(triple.subject, [triple]);
    else group.push(triple);
  }
  return groups;
}

/** The graph as Turtle: the prefixes, then each subject's triples as one statement. */
export function toTurtle(triples: readonly Triple[]): string {
  const lines = Object.entries(PREFIXES).map(([prefix, iri]) => `@prefix ${prefix}: <${iri}> .`);
  for (const [subject, group] of bySubject(triples)) {
    lines.push("", `<${safeIri(subject)}>`);
    group.forEach((triple, i) => lines.push(`  ${triple.predicate} ${turtleTerm(triple.object)}${i === group.length - 1 ? " ." : " ;"}`));
  }
  return `${lines.join("\n")}\n`;
}

function jsonLdTerm(term: Term): Record<string, string> {
  if ("iri" in term) return { "@id": safeIri(term.iri) };
  const value = wellFormed(term.value);
  if (term.lang !== undefined) return { "@value": value, "@language": term.lang };
  if (term.datatype !== undefined) return { "@value": value, "@type": term.datatype };
  return { "@value": value };
}

/** The graph as JSON-LD: an inline context of the prefixes (no remote context to fetch), one node a subject. */
export function toJsonLd(triples: readonly Triple[]): Record<string, unknown> {
  const graph = [...bySubject(triples)].map(([subject, group]) => {
    const node: Record<string, unknown> = { "@id": safeIri(subject) };
    for (const triple of group) {
      const key = triple.predicate === "a" ? "@type" : triple.predicate;
      const value =
        triple.predicate === "a"
          ? "iri" in triple.object
            ? compact(safeIri(triple.object.iri))
            : triple.object.value
          : jsonLdTerm(triple.object);
      const known = node[key];
      node[key] = known === undefined ? [value] : [...(known as unknown[]), value];
    }
    return node;
  });
  return { "@context": PREFIXES, "@graph": graph };
}

/** An IRI as a prefixed name when one of PREFIXES starts it (JSON-LD expands it back by the context). */
function compact(iri: string): string {
  for (const [prefix, base] of Object.entries(PREFIXES)) if (iri.startsWith(base)) return `${prefix}:${iri.slice(base.length)}`;
  return iri;
}
