/**
 * `/catalog.ttl` and `/catalog.jsonld`: the registry described for open-data portals in DCAT-AP
 * 3.0.1 (the European profile data.europa.eu and CKAN's DCAT harvester read): one Catalogue, one
 * Dataset, a Distribution per download with its size and SHA-256, and a Data Service for the API.
 * The Dataset's IRI is the descriptor's `id`, else one on the base URL: the same in every build,
 * because a harvester deletes a dataset whose IRI disappears. Controlled values are the EU's
 * vocabularies (file types, languages, countries, themes, access rights) and IANA's media types,
 * each typed and placed in its scheme here, so the SHACL shapes can check them without imports.
 */
import { COLLECTION_PATH } from "../../core/build-links.ts";
import { DOWNLOAD_KINDS, type Download } from "../../core/download-files.ts";
import type { Contributor, DatasetMetadata } from "./dataset-metadata.ts";
import { contributorWith, croatian } from "./metadata-views.ts";
import { expand, type Term, type Triple } from "./rdf-graph.ts";

const EU = "http://publications.europa.eu/resource/authority/";
const IANA = "https://www.iana.org/assignments/media-types/";
// The https form: DCAT-AP's vocabulary shapes match the algorithm's IRI against ^https://spdx.org/rdf/terms.
const SPDX_SHA256 = "https://spdx.org/rdf/terms#checksumAlgorithm_sha256";
const KEYWORDS: readonly (readonly [string, string])[] = [
  ["registar", "hr"],
  ["tijela javne vlasti", "hr"],
  ["OIB", "hr"],
  ["registry", "en"],
  ["public authorities", "en"],
];

export interface CatalogFacts {
  readonly baseUrl: string;
  readonly count: number;
  readonly downloads: readonly Download[];
  readonly published: Date;
}

/** The IRIs of the catalogue's nodes. */
export function catalogIris(metadata: DatasetMetadata, baseUrl: string) {
  return {
    catalogue: `${baseUrl}/#catalogue`,
    dataset: metadata.id ?? `${baseUrl}/#dataset`,
    service: `${baseUrl}/#api`,
    publisher: `${baseUrl}/#publisher`,
    contact: `${baseUrl}/#contact`,
    distribution: (format: string) => `${baseUrl}/#download-${format}`,
    checksum: (format: string) => `${baseUrl}/#download-${format}-sha256`,
  };
}

/** The catalogue as triples (rdf-graph.ts writes them as Turtle and JSON-LD). */
export function catalogTriples(metadata: DatasetMetadata, facts: CatalogFacts): Triple[] {
  const part: CataloguePart = {
    metadata,
    facts,
    iri: catalogIris(metadata, facts.baseUrl),
    g: graphWriter(metadata),
    modified: { value: facts.published.toISOString(), datatype: "xsd:dateTime" },
    contact: contributorWith(metadata, "contact") ?? contributorWith(metadata, "publisher"),
  };
  catalogueNode(part);
  agentNodes(part);
  datasetNode(part);
  distributionNodes(part);
  serviceNode(part);
  vocabularyNodes(part);
  return part.g.triples;
}

/** What each part of the catalogue is written from, and the graph it adds to. */
interface CataloguePart {
  readonly metadata: DatasetMetadata;
  readonly facts: CatalogFacts;
  readonly iri: ReturnType<typeof catalogIris>;
  readonly g: GraphWriter;
  readonly modified: Term;
  readonly contact: Contributor | undefined;
}

const ref = (target: string): Term => ({ iri: target });

/** The triples so far, and the ways of adding them the catalogue uses. */
interface GraphWriter {
  readonly triples: Triple[];
  /** Each controlled concept used, with its type and scheme (written last, by vocabularyNodes). */
  readonly concepts: Map<string, { readonly type: string; readonly scheme: string }>;
  add(subject: string, predicate: string, object: Term): void;
  /** A text in Croatian and in English. */
  texts(subject: string, predicate: string, text: { hr: string; en: string }): void;
  /** A concept of a controlled vocabulary, typed and in its scheme. */
  concept(subject: string, predicate: string, value: string, type: string, scheme: string): void;
  /** Every licence of the data, on `subject`. */
  withLicences(subject: string): void;
}

function graphWriter(metadata: DatasetMetadata): GraphWriter {
  const triples: Triple[] = [];
  const concepts: GraphWriter["concepts"] = new Map();
  const add = (subject: string, predicate: string, object: Term): void => void triples.push({ subject, predicate, object });
  return {
    triples,
    concepts,
    add,
    texts(subject, predicate, text) {
      add(subject, predicate, { value: text.hr, lang: "hr" });
      add(subject, predicate, { value: text.en, lang: "en" });
    },
    concept(subject, predicate, value, type, scheme) {
      add(subject, predicate, ref(value));
      concepts.set(value, { type, scheme });
    },
    withLicences(subject) {
      for (const licence of metadata.licenses) add(subject, "dct:license", ref(licence.path));
    },
  };
}

/** The catalogue: titles, publisher, home page, languages, place, themes, the dataset and the service. */
function catalogueNode({ metadata, facts, iri, g, modified }: CataloguePart): void {
  const { baseUrl } = facts;
  const hr = croatian(metadata);
  g.add(iri.catalogue, "a", ref("http://www.w3.org/ns/dcat#Catalog"));
  g.texts(iri.catalogue, "dct:title", { hr: `Katalog: ${hr.title}`, en: `Catalogue: ${metadata.title}` });
  g.texts(iri.catalogue, "dct:description", {
    hr: `Otvoreni podaci ${hr.title}: popis za preuzimanje i API.`,
    en: `The open data of the ${metadata.title}: the list as downloads and an API.`,
  });
  g.add(iri.catalogue, "dct:publisher", ref(iri.publisher));
  g.add(iri.catalogue, "foaf:homepage", ref(`${baseUrl}/`));
  g.concept(iri.catalogue, "dct:language", `${EU}language/HRV`, "dct:LinguisticSystem", `${EU}language`);
  g.concept(iri.catalogue, "dct:language", `${EU}language/ENG`, "dct:LinguisticSystem", `${EU}language`);
  g.concept(iri.catalogue, "dct:spatial", `${EU}country/HRV`, "dct:Location", `${EU}country`);
  g.add(iri.catalogue, "dcat:themeTaxonomy", ref(`${EU}data-theme`));
  g.add(`${EU}data-theme`, "a", ref(expand("skos:ConceptScheme")));
  g.texts(`${EU}data-theme`, "dct:title", { hr: "Teme podataka (EU)", en: "Data themes (EU)" });
  g.add(`${baseUrl}/`, "a", ref(expand("foaf:Document")));
  g.add(iri.catalogue, "dct:modified", modified);
  g.withLicences(iri.catalogue);
  g.add(iri.catalogue, "dcat:dataset", ref(iri.dataset));
  g.add(iri.catalogue, "dcat:service", ref(iri.service));
}

/** The publisher, and the contact point. */
function agentNodes({ metadata, iri, g, contact }: CataloguePart): void {
  const publisher = contributorWith(metadata, "publisher");
  g.add(iri.publisher, "a", ref("http://xmlns.com/foaf/0.1/Agent"));
  g.add(iri.publisher, "foaf:name", { value: publisher?.title ?? metadata.title });
  if (publisher?.path !== undefined) g.add(iri.publisher, "foaf:homepage", ref(publisher.path));
  if (publisher?.email !== undefined) g.add(iri.publisher, "foaf:mbox", ref(`mailto:${publisher.email}`));
  if (contact !== undefined) contactPoint(g.add, iri.contact, contact);
}

/** The dataset: titles, descriptions, keywords, controlled concepts, sources and distributions. */
function datasetNode({ metadata, facts, iri, g, modified, contact }: CataloguePart): void {
  const { baseUrl } = facts;
  const hr = croatian(metadata);
  g.add(iri.dataset, "a", ref("http://www.w3.org/ns/dcat#Dataset"));
  g.texts(iri.dataset, "dct:title", { hr: hr.title, en: metadata.title });
  g.texts(iri.dataset, "dct:description", { hr: hr.description, en: metadata.description });
  g.add(iri.dataset, "dct:identifier", { value: iri.dataset });
  g.add(iri.dataset, "dct:publisher", ref(iri.publisher));
  if (contact !== undefined) g.add(iri.dataset, "dcat:contactPoint", ref(iri.contact));
  g.add(iri.dataset, "dct:modified", modified);
  g.add(iri.dataset, "dcat:landingPage", ref(`${baseUrl}/`));
  for (const [word, lang] of KEYWORDS) g.add(iri.dataset, "dcat:keyword", { value: word, lang });
  g.concept(iri.dataset, "dcat:theme", `${EU}data-theme/GOVE`, "skos:Concept", `${EU}data-theme`);
  g.texts(`${EU}data-theme/GOVE`, "skos:prefLabel", { hr: "Vlada i javni sektor", en: "Government and public sector" });
  g.concept(iri.dataset, "dct:spatial", `${EU}country/HRV`, "dct:Location", `${EU}country`);
  g.concept(iri.dataset, "dct:language", `${EU}language/HRV`, "dct:LinguisticSystem", `${EU}language`);
  g.concept(iri.dataset, "dct:accessRights", `${EU}access-right/PUBLIC`, "dct:RightsStatement", `${EU}access-right`);
  // The sources are web pages, not datasets (dct:source's range in DCAT-AP): related resources.
  for (const source of metadata.sources) if (source.path !== undefined) g.add(iri.dataset, "dct:relation", ref(source.path));
  for (const download of facts.downloads) g.add(iri.dataset, "dcat:distribution", ref(iri.distribution(download.format)));
}

/** A distribution per download, with its size and SHA-256. */
function distributionNodes({ facts, iri, g, modified }: CataloguePart): void {
  const { baseUrl } = facts;
  for (const download of facts.downloads) {
    const kind = DOWNLOAD_KINDS[download.format];
    const node = iri.distribution(download.format);
    g.add(node, "a", ref("http://www.w3.org/ns/dcat#Distribution"));
    g.texts(node, "dct:title", { hr: `Cijeli popis: ${kind.title.hr}`, en: `The whole list: ${kind.title.en}` });
    g.texts(node, "dct:description", {
      hr: `Svih ${facts.count} subjekata, redom po id-u; stalna adresa, isti sadržaj i na ${download.immutablePath}.`,
      en: `All ${facts.count} subjects, in id order; a stable URL, the same bytes also at ${download.immutablePath}.`,
    });
    g.add(node, "dcat:accessURL", ref(`${baseUrl}${download.path}`));
    g.add(node, "dcat:downloadURL", ref(`${baseUrl}${download.path}`));
    if (kind.registeredMediaType !== null)
      g.concept(node, "dcat:mediaType", `${IANA}${kind.registeredMediaType}`, "dct:MediaType", `${IANA}`);
    g.concept(node, "dct:format", `${EU}file-type/${kind.euFileType}`, "dct:MediaTypeOrExtent", `${EU}file-type`);
    g.add(node, "dcat:byteSize", { value: String(download.bytes), datatype: "xsd:nonNegativeInteger" });
    g.add(node, "dct:modified", modified);
    g.withLicences(node);
    g.add(node, "spdx:checksum", ref(iri.checksum(download.format)));
    g.add(iri.checksum(download.format), "a", ref("http://spdx.org/rdf/terms#Checksum"));
    g.add(iri.checksum(download.format), "spdx:algorithm", ref(SPDX_SHA256));
    g.add(iri.checksum(download.format), "spdx:checksumValue", { value: download.sha256, datatype: "xsd:hexBinary" });
  }
  if (facts.downloads.length > 0) g.add(SPDX_SHA256, "a", ref("http://spdx.org/rdf/terms#ChecksumAlgorithm"));
}

/** The API as a Data Service. */
function serviceNode({ facts, iri, g, contact }: CataloguePart): void {
  const { baseUrl } = facts;
  g.add(iri.service, "a", ref("http://www.w3.org/ns/dcat#DataService"));
  g.texts(iri.service, "dct:title", {
    hr: "API: popis subjekata po stranicama (JSON)",
    en: "API: the list of subjects a page at a time (JSON)",
  });
  g.texts(iri.service, "dct:description", {
    hr: `${COLLECTION_PATH}?limit=&offset= kao Django REST Framework (LimitOffsetPagination); opis u OpenAPI 3.1.`,
    en: `${COLLECTION_PATH}?limit=&offset= as Django REST Framework (LimitOffsetPagination); described in OpenAPI 3.1.`,
  });
  g.add(iri.service, "dcat:endpointURL", ref(`${baseUrl}${COLLECTION_PATH}`));
  g.add(iri.service, "dcat:endpointDescription", ref(`${baseUrl}/openapi.json`));
  g.add(iri.service, "dcat:servesDataset", ref(iri.dataset));
  g.add(iri.service, "dct:publisher", ref(iri.publisher));
  if (contact !== undefined) g.add(iri.service, "dcat:contactPoint", ref(iri.contact));
  g.concept(iri.service, "dct:accessRights", `${EU}access-right/PUBLIC`, "dct:RightsStatement", `${EU}access-right`);
  g.withLicences(iri.service);
}

/** What the values are: licences, and each controlled concept in its scheme. */
function vocabularyNodes({ metadata, g }: CataloguePart): void {
  for (const licence of metadata.licenses) {
    g.add(licence.path, "a", ref("http://purl.org/dc/terms/LicenseDocument"));
    g.add(licence.path, "dct:title", { value: licence.title });
  }
  for (const [value, { type, scheme }] of g.concepts) {
    g.add(value, "a", ref(expand(type)));
    g.add(value, "skos:inScheme", ref(scheme));
  }
}

/** A contact point (vCard): the contributor's name, e-mail and web address. */
function contactPoint(add: (subject: string, predicate: string, object: Term) => void, node: string, contact: Contributor): void {
  add(node, "a", { iri: "http://www.w3.org/2006/vcard/ns#Kind" });
  add(node, "vcard:fn", { value: contact.title });
  if (contact.email !== undefined) add(node, "vcard:hasEmail", { iri: `mailto:${contact.email}` });
  if (contact.path !== undefined) add(node, "vcard:hasURL", { iri: contact.path });
}
