/**
 * The answer to a page for people, from the same files and answers as the API: an institution's
 * page from its record as the JSON detail finds it (find-subjects.ts), the results page from the
 * list's own answer to the same query. A missing subject is the branded 404 page.
 */
import type { HeaderList } from "../answer-headers.ts";
import type { findSubjects } from "../find-subjects.ts";
import type { Manifest } from "../manifest.ts";
import type { HtmlDecision } from "./html-routes.ts";
import { notFoundPage } from "./not-found-page.ts";
import { type ListAnswer, readListPage, resultsPage } from "./results-page.ts";
import { subjectPage } from "./subject-page.ts";
import { readSubject } from "./subject-view.ts";
import { decodeQueryBytes } from "../request/read-target.ts";
import { lastValue, parseQuery } from "../request/read-query.ts";
import type { SearchValues } from "./search-form.ts";

/** An answer of these pages: status, headers (no ETag, no length) and the HTML. */
export interface HtmlAnswer {
  readonly status: number;
  readonly headers: HeaderList;
  readonly body: string;
}

/** The list API's answer to a query: its status and body, or null when a file the manifest names is missing. */
export type AskList = (query: string) => Promise<{ readonly status: number; readonly body: Uint8Array } | null>;

const UTF8 = new TextDecoder();
const TAG_HEADERS = new Set(["netlify-cache-tag", "cache-tag"]);

/** The JSON detail's answer for one id (find-subjects.ts), or null when a file the manifest names is missing. */
export type AskSubject = (id: bigint) => ReturnType<typeof findSubjects>;

/** Answers a page for people; null when a file the manifest names is missing (the host looks again). */
export async function answerHtml(
  decision: HtmlDecision,
  manifest: Manifest,
  askSubject: AskSubject,
  askList: AskList,
): Promise<HtmlAnswer | null> {
  const { page, headers } = decision;
  switch (page.kind) {
    case "not-found":
      return { status: 404, headers, body: notFoundPage() };
    case "subject": {
      const found = await askSubject(page.id);
      if (found === null) return null;
      const subject =
        found.status === 200 ? readSubject(JSON.parse(typeof found.body === "string" ? found.body : UTF8.decode(found.body))) : null;
      if (subject === null) return { status: 404, headers, body: notFoundPage() };
      // The record's chunk tags, as its JSON detail carries them: a purge of the chunk purges the page.
      const tags = found.headers.filter(([name]) => TAG_HEADERS.has(name.toLowerCase()));
      const own = headers.filter(([name]) => !TAG_HEADERS.has(name.toLowerCase()));
      const facts = {
        baseUrl: manifest.baseUrl,
        published: manifest.published,
        downloads: (manifest.downloads ?? []).map((d) => ({ path: d.path, format: d.format })),
      };
      return { status: 200, headers: [...own, ...tags], body: subjectPage(subject, facts) };
    }
    case "results": {
      const listed = await askList(page.query);
      if (listed === null) return null;
      let answer: ListAnswer = { kind: "refused", status: listed.status };
      if (listed.status === 200) answer = readListPage(JSON.parse(UTF8.decode(listed.body))) ?? answer;
      return { status: 200, headers, body: resultsPage(searchValues(page.query), answer) };
    }
    default: {
      const unknownPage: never = page;
      throw new Error(`unknown page ${JSON.stringify(unknownPage)}`);
    }
  }
}

/** The search form's values in a query, as the list reads them (QueryDict's last value). */
export function searchValues(query: string): SearchValues {
  const params = parseQuery(decodeQueryBytes(query));
  const values: Record<string, string> = {};
  for (const name of ["search", "razina", "institucija_grad", "ordering"] as const) {
    const value = lastValue(params, name);
    if (value !== undefined) values[name] = value;
  }
  return values;
}
