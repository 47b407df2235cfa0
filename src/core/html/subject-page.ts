/**
 * One institution's page (`/subjekti/<id>/`): every field with its Croatian label and a line on
 * what it means (English beside it), the contact as links, the data's date, links to the JSON
 * detail and the downloads, schema.org `GovernmentOrganization` JSON-LD, a canonical link and the
 * JSON detail as the alternate. Rendered from the record's bytes as the JSON detail answers them,
 * on routed hosts at request time and on plain static hosts by the build.
 */
import { contactHtml, contactParts } from "./contact-links.ts";
import { croatianDate, escapeHtml, scriptJson, valueText } from "./html-text.ts";
import { pageHtml } from "./page-frame.ts";
import { subjectPagePath, type SubjectView } from "./subject-view.ts";

/** A field's label and the line on what it holds, in Croatian and English. */
interface FieldText {
  readonly hr: string;
  readonly en: string;
  readonly aboutHr: string;
  readonly aboutEn: string;
}

/** The ten fields, in the record's order, as people read them. */
export const FIELD_TEXTS: Readonly<Record<keyof SubjectView, FieldText>> = {
  id: {
    hr: "Identifikator",
    en: "Identifier",
    aboutHr: "Broj subjekta u ovom registru; ne mijenja se, a brojevi nisu uzastopni.",
    aboutEn: "The subject's number in this registry; it does not change, and numbers are not consecutive.",
  },
  jedinstvena_oznaka: {
    hr: "Jedinstvena oznaka",
    en: "Unique code",
    aboutHr: "Četiri znamenke s vodećim nulama, jedinstvene za svaki subjekt.",
    aboutEn: "Four digits with leading zeros, unique to each subject.",
  },
  naziv_subjekta: {
    hr: "Naziv subjekta",
    en: "Name",
    aboutHr: "Službeni naziv institucije.",
    aboutEn: "The institution's official name.",
  },
  oib: {
    hr: "OIB",
    en: "Personal identification number (OIB)",
    aboutHr: "Osobni identifikacijski broj: 11 znamenki, može počinjati nulom.",
    aboutEn: "Croatia's identification (tax) number: 11 digits, possibly starting with a zero.",
  },
  razina: {
    hr: "Razina",
    en: "Level",
    aboutHr: "Djeluje li subjekt na lokalnoj ili nacionalnoj razini.",
    aboutEn: "Whether the subject works at the local or the national level.",
  },
  datum_postanka: {
    hr: "Datum postanka",
    en: "Founding date",
    aboutHr: "Dan kad je subjekt nastao.",
    aboutEn: "The day the subject came into being.",
  },
  status_subjekta: {
    hr: "Status subjekta",
    en: "Status",
    aboutHr: "Oznaka statusa subjekta u registru: da ili ne (izvor je pobliže ne opisuje).",
    aboutEn: "The subject's status flag in the registry: yes or no (the source does not define it further).",
  },
  odobreno: {
    hr: "Odobreno",
    en: "Approved",
    aboutHr: "Je li upis subjekta u registar odobren: da ili ne.",
    aboutEn: "Whether the subject's entry in the registry is approved: yes or no.",
  },
  institucija_grad: {
    hr: "Mjesto",
    en: "Town",
    aboutHr: "Mjesto institucije; može se razlikovati od mjesta u nazivu.",
    aboutEn: "The institution's town; it may differ from the town in its name.",
  },
  institucija_email: {
    hr: "Kontakt",
    en: "Contact",
    aboutHr: "Obično adresa e-pošte; može ih biti više, odvojenih zarezom, ili web-adresa.",
    aboutEn: "Usually an e-mail address; there may be several, separated by commas, or a web address.",
  },
};

/** What the page shows beside the record: where the site is, when the data changed, the downloads. */
export interface SubjectPageFacts {
  /** The site's public origin (the canonical link's). */
  readonly baseUrl: string;
  /** When the data last changed, `YYYY-MM-DD`; absent when the site does not say. */
  readonly published?: string | undefined;
  /** The downloads' stable paths, with their formats. */
  readonly downloads: readonly { readonly path: string; readonly format: string }[];
  /** Where the page and its JSON are on a site of plain files (file-links.ts); absent: the routed paths. */
  readonly paths?: { readonly page: string; readonly json: string };
}

/** The schema.org `GovernmentOrganization` of a subject: what search engines and JSON-LD processors read. */
export function subjectJsonLd(subject: SubjectView, baseUrl: string): Record<string, unknown> {
  const url = `${baseUrl}${subjectPagePath(subject.id)}`;
  const parts = contactParts(subject.institucija_email);
  const emails = parts.flatMap((part) => (part.kind === "email" ? [part.address] : []));
  const webs = parts.flatMap((part) => (part.kind === "web" ? [part.url] : []));
  return {
    "@context": "https://schema.org",
    "@type": "GovernmentOrganization",
    "@id": url,
    url,
    name: subject.naziv_subjekta,
    identifier: [
      { "@type": "PropertyValue", propertyID: "OIB", value: subject.oib },
      { "@type": "PropertyValue", propertyID: "jedinstvena_oznaka", value: subject.jedinstvena_oznaka },
    ],
    taxID: subject.oib,
    foundingDate: subject.datum_postanka,
    address: { "@type": "PostalAddress", addressLocality: subject.institucija_grad, addressCountry: "HR" },
    ...(emails.length === 0 ? {} : { email: emails.length === 1 ? emails[0] : emails }),
    ...(webs.length === 0 ? {} : { sameAs: webs.length === 1 ? webs[0] : webs }),
    mainEntityOfPage: url,
    subjectOf: `${baseUrl}/api/subjekti/${subject.id}/`,
  };
}

function valueHtml(subject: SubjectView, field: keyof SubjectView): string {
  switch (field) {
    case "status_subjekta":
    case "odobreno":
      return subject[field] ? 'da <span lang="en" class="en">/ yes</span>' : 'ne <span lang="en" class="en">/ no</span>';
    case "institucija_email":
      return contactHtml(subject.institucija_email);
    case "datum_postanka":
      return `<time datetime="${escapeHtml(subject.datum_postanka)}">${valueText(croatianDate(subject.datum_postanka))}</time>`;
    case "id":
      return String(subject.id);
    default:
      return valueText(subject[field]);
  }
}

/** The institution's page. */
export function subjectPage(subject: SubjectView, facts: SubjectPageFacts): string {
  const e = escapeHtml;
  const json = facts.paths?.json ?? `/api/subjekti/${subject.id}/`;
  const canonical = `${facts.baseUrl}${facts.paths?.page ?? subjectPagePath(subject.id)}`;
  const rows = (Object.keys(FIELD_TEXTS) as (keyof SubjectView)[])
    .map((field) => {
      const text = FIELD_TEXTS[field];
      return `<tr><th scope="row">${e(text.hr)} <span lang="en" class="en">/ ${e(text.en)}</span><br><code>${field}</code></th><td><p>${valueHtml(subject, field)}</p><p class="meta">${e(text.aboutHr)}</p><p class="meta en" lang="en">${e(text.aboutEn)}</p></td></tr>`;
    })
    .join("\n");
  const downloads = facts.downloads
    .map((d) => `<li><a href="${e(d.path)}">${e(d.path)}</a> (${e(d.format.toUpperCase())})</li>`)
    .join("\n");
  const date =
    facts.published === undefined
      ? ""
      : `<p>Podaci registra zadnji put promijenjeni <time datetime="${e(facts.published)}">${e(croatianDate(facts.published))}</time> <span lang="en" class="en">/ The registry's data last changed on ${e(facts.published)}</span></p>\n`;
  return pageHtml({
    title: `${subject.naziv_subjekta} · Registar subjekata`,
    description: `${subject.naziv_subjekta}, ${subject.institucija_grad}: OIB ${subject.oib}, ${subject.razina} razina.`,
    head: `<link rel="canonical" href="${e(canonical)}">
<link rel="alternate" type="application/json" href="${e(json)}">
<script type="application/ld+json">
${scriptJson(subjectJsonLd(subject, facts.baseUrl))}
</script>
`,
    main: `<h1 id="naziv">${valueText(subject.naziv_subjekta)}</h1>
<p class="meta">${valueText(subject.institucija_grad)} · OIB ${valueText(subject.oib)} · ${valueText(subject.razina)} razina <span lang="en" class="en">/ ${valueText(subject.razina)} level</span></p>
<table class="fields">
<caption>Podaci o subjektu <span lang="en" class="en">/ The subject's data</span></caption>
<thead><tr><th scope="col">polje / field</th><th scope="col">vrijednost i značenje / value and meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${date}<h2>Podaci za programe <span lang="en" class="en">/ Data for programs</span></h2>
<ul>
<li><a id="json" href="${e(json)}">${e(json)}</a> — ovaj subjekt u JSON-u <span lang="en" class="en">(this subject as JSON)</span></li>
${downloads === "" ? "" : `${downloads}\n`}</ul>
<p><a href="/">Pretraži registar</a> <span lang="en" class="en">/ <a href="/">Search the registry</a></span></p>`,
  });
}
