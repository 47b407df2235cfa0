/** The catalogue's graph as a real RDF parser reads it, for comparing the Turtle and the JSON-LD. */
import { JsonLdParser } from "jsonld-streaming-parser";
import type { Quad } from "n3";

/** A graph's triples as strings: each term with its kind, a literal with its language and datatype. */
export function tripleSet(quads: readonly Quad[]): string[] {
  const term = (t: Quad["object"]): string =>
    t.termType === "Literal" ? `"${JSON.stringify(t.value)}"@${t.language}^^${t.datatype.value}` : `${t.termType}:${t.value}`;
  return [...new Set(quads.map((q) => `${term(q.subject as Quad["object"])} ${q.predicate.value} ${term(q.object)}`))].sort();
}

/** The quads of a JSON-LD text, by jsonld-streaming-parser. */
export async function jsonLdQuads(text: string): Promise<Quad[]> {
  const parser = new JsonLdParser();
  const quads: Quad[] = [];
  return new Promise((resolve, reject) => {
    parser.on("data", (quad: Quad) => quads.push(quad));
    parser.on("error", reject);
    parser.on("end", () => resolve(quads));
    parser.write(text);
    parser.end();
  });
}
