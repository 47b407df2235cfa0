/**
 * The results page (`/trazi/?search=…`): the search form's answer without JavaScript, rendered by
 * the routed host from the list API's own answer to the same query (the JSON page's data in, HTML
 * out), so it finds exactly what `/api/subjekti/?search=…` finds.
 */
import { escapeHtml, valueText } from "./html-text.ts";
import { pageHtml } from "./page-frame.ts";
import { RESULTS_PATH, searchForm, type SearchValues } from "./search-form.ts";
import { readSubject, subjectPagePath, type SubjectView } from "./subject-view.ts";

/** The list's answer as the page reads it: a page envelope, or the status of an answer that was none. */
export type ListAnswer =
  | {
      readonly kind: "page";
      readonly count: number;
      readonly next: string | null;
      readonly previous: string | null;
      readonly results: readonly SubjectView[];
    }
  | { readonly kind: "refused"; readonly status: number };

/** The list's JSON body read as a page envelope; null when it is not one. */
export function readListPage(value: unknown): Extract<ListAnswer, { kind: "page" }> | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  const link = (x: unknown): x is string | null => x === null || typeof x === "string";
  if (!Number.isSafeInteger(v["count"]) || !link(v["next"]) || !link(v["previous"]) || !Array.isArray(v["results"])) return null;
  const results = v["results"].map(readSubject);
  if (results.some((s) => s === null)) return null;
  return { kind: "page", count: v["count"] as number, next: v["next"], previous: v["previous"], results: results as SubjectView[] };
}

/** A list link (`…/api/subjekti/?limit=20&offset=20&search=x`) as the results page's own (`/trazi/?…`). */
function resultsLink(link: string): string {
  const query = link.indexOf("?");
  return query < 0 ? RESULTS_PATH : `${RESULTS_PATH}${link.slice(query)}`;
}

/** The results page's HTML. */
export function resultsPage(values: SearchValues, answer: ListAnswer): string {
  const e = escapeHtml;
  let found: string;
  if (answer.kind === "refused") {
    found = `<p id="stanje" role="status">Ovakvu pretragu registar ne prihvaća (odgovor ${answer.status}). <span lang="en" class="en">/ The registry does not take this search (answer ${answer.status}).</span></p>\n<ol id="rezultati" class="results"></ol>`;
  } else {
    const items = answer.results
      .map(
        (s) =>
          `<li><a href="${e(subjectPagePath(s.id))}">${valueText(s.naziv_subjekta)}</a><br><span class="meta">${valueText(s.institucija_grad)} · OIB ${valueText(s.oib)} · ${valueText(s.institucija_email)}</span></li>`,
      )
      .join("\n");
    const pages = [
      answer.previous === null
        ? ""
        : `<a rel="prev" href="${e(resultsLink(answer.previous))}">← prethodni <span lang="en">/ previous</span></a>`,
      answer.next === null ? "" : `<a rel="next" href="${e(resultsLink(answer.next))}">sljedeći <span lang="en">/ next</span> →</a>`,
    ].filter((x) => x !== "");
    found = `<p id="stanje" role="status" aria-live="polite">Pronađeno subjekata: ${answer.count}. <span lang="en" class="en">/ Subjects found: ${answer.count}.</span></p>
<ol id="rezultati" class="results">
${items}
</ol>
${pages.length === 0 ? "" : `<nav aria-label="Stranice rezultata / Result pages"><p>${pages.join(" · ")}</p></nav>`}`;
  }
  return pageHtml({
    title: `${values.search === undefined || values.search === "" ? "Pretraga" : `„${values.search}“`} · Registar subjekata`,
    head: '<meta name="robots" content="noindex">\n',
    script: true,
    main: `<h1>Pretraga registra <span lang="en" class="en">/ Search the registry</span></h1>
${searchForm(values)}
${found}`,
  });
}
