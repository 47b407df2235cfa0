/**
 * The pages for people as pure functions: the institution's page (every field labelled, the
 * contact as links, the JSON-LD read back as the record), the results page from a list answer, the
 * router's html decisions, and every value as text on every page (hostile names built here; the
 * browser's own reading of them is test/browser/people.slow.test.ts).
 */
import type { Quad } from "n3";
import { JsonLdParser } from "jsonld-streaming-parser";
import { describe, expect, it } from "vitest";
import { searchValues } from "../../../src/core/html/answer-html.ts";
import { contactParts } from "../../../src/core/html/contact-links.ts";
import { escapeHtml, escapeXml, scriptJson } from "../../../src/core/html/html-text.ts";
import { routeHtml } from "../../../src/core/html/html-routes.ts";
import { notFoundPage } from "../../../src/core/html/not-found-page.ts";
import { readListPage, resultsPage } from "../../../src/core/html/results-page.ts";
import { FIELD_TEXTS, subjectJsonLd, subjectPage } from "../../../src/core/html/subject-page.ts";
import { readSubject, type SubjectView } from "../../../src/core/html/subject-view.ts";
import type { Manifest } from "../../../src/core/manifest.ts";
import { route } from "../../../src/core/route.ts";

const LADO: SubjectView = {
  id: 51,
  jedinstvena_oznaka: "0041",
  naziv_subjekta: "Ansambl narodnih plesova i pjesama Hrvatske LADO",
  oib: "28251263363",
  razina: "nacionalna",
  datum_postanka: "2012-07-12",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: "Zagreb",
  institucija_email: "lado@lado.hr, info@lado.hr",
};
const FACTS = {
  baseUrl: "https://subjekti.example",
  published: "2026-11-20",
  downloads: [{ path: "/downloads/subjekti.csv", format: "csv" }],
};

/** The JSON-LD blocks of a page, parsed as a JSON-LD processor reads them (the escapes are JSON's). */
function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">\n([^<]*)\n<\/script>/g)].map((m) => JSON.parse(m[1] ?? ""));
}

/** Hostile values: markup, a script's end, a bidi override, JavaScript's line terminators, an entity. */
const HOSTILE = [
  "</script><script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "\u202Eevil\u202C name",
  "line\u2028separator\u2029paragraph",
  "<!-- comment &amp; <b>bold</b>",
];

describe("the institution's page", () => {
  const html = subjectPage(LADO, FACTS);

  it("labels every field in Croatian and English, with its line on what it means", () => {
    for (const text of Object.values(FIELD_TEXTS)) {
      for (const words of [text.hr, text.en, text.aboutHr, text.aboutEn]) expect(html).toContain(escapeHtml(words));
    }
    expect(html).toContain('<time datetime="2012-07-12"><bdi>12. 7. 2012.</bdi></time>');
    expect(html).toContain('da <span lang="en" class="en">/ yes</span>');
    expect(html).toContain('ne <span lang="en" class="en">/ no</span>');
  });

  it("gives each of several addresses its own mailto: link, and the canonical, alternate, JSON and download links", () => {
    expect(html).toContain(
      '<a href="mailto:lado@lado.hr"><bdi>lado@lado.hr</bdi></a>, <a href="mailto:info@lado.hr"><bdi>info@lado.hr</bdi></a>',
    );
    expect(html).toContain('<link rel="canonical" href="https://subjekti.example/subjekti/51/">');
    expect(html).toContain('<link rel="alternate" type="application/json" href="/api/subjekti/51/">');
    expect(html).toContain('<a id="json" href="/api/subjekti/51/">');
    expect(html).toContain('<a href="/downloads/subjekti.csv">');
    expect(html).toContain('<time datetime="2026-11-20">20. 11. 2026.</time>');
  });

  it("holds a schema.org GovernmentOrganization that matches the record", () => {
    expect(jsonLd(html)).toEqual([
      {
        "@context": "https://schema.org",
        "@type": "GovernmentOrganization",
        "@id": "https://subjekti.example/subjekti/51/",
        url: "https://subjekti.example/subjekti/51/",
        name: LADO.naziv_subjekta,
        identifier: [
          { "@type": "PropertyValue", propertyID: "OIB", value: "28251263363" },
          { "@type": "PropertyValue", propertyID: "jedinstvena_oznaka", value: "0041" },
        ],
        taxID: "28251263363",
        foundingDate: "2012-07-12",
        address: { "@type": "PostalAddress", addressLocality: "Zagreb", addressCountry: "HR" },
        email: ["lado@lado.hr", "info@lado.hr"],
        mainEntityOfPage: "https://subjekti.example/subjekti/51/",
        subjectOf: "https://subjekti.example/api/subjekti/51/",
      },
    ]);
  });

  it("runs no script: the one script element is the JSON-LD data block", () => {
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="application/ld+json">']);
  });
});

describe("contact values as the spec allows them", () => {
  it.each([
    ["one address -> one mailto", "a@b.hr", [{ kind: "email", address: "a@b.hr" }]],
    [
      "two addresses split at ', ' -> two",
      "a@b.hr, c@d.hr",
      [
        { kind: "email", address: "a@b.hr" },
        { kind: "email", address: "c@d.hr" },
      ],
    ],
    ["a web address with www. -> an https link", "www.grad.hr", [{ kind: "web", url: "https://www.grad.hr", text: "www.grad.hr" }]],
    ["an http address -> that link", "http://grad.hr/x", [{ kind: "web", url: "http://grad.hr/x", text: "http://grad.hr/x" }]],
    ["javascript: -> text, never a link", "javascript:alert(1)", [{ kind: "text", text: "javascript:alert(1)" }]],
    ["markup -> text", '"><img src=x>@a.hr', [{ kind: "text", text: '"><img src=x>@a.hr' }]],
  ])("%s", (_name, contact, parts) => {
    expect(contactParts(contact)).toEqual(parts);
  });
});

describe("every value is text, never markup", () => {
  it.each(HOSTILE)("%j as name, town and contact: escaped in the page, the JSON-LD read back as the value", (value) => {
    const subject = { ...LADO, naziv_subjekta: value, institucija_grad: value, institucija_email: value };
    const pages = [
      subjectPage(subject, FACTS),
      resultsPage({ search: value }, { kind: "page", count: 1, next: null, previous: null, results: [subject] }),
    ];
    for (const html of pages) {
      // No element but the page's own: the value never opens a tag or closes the JSON-LD block.
      expect(html).not.toContain("<img");
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<b>");
      expect(html).not.toContain("<!-- comment");
      expect(html.match(/<\/script>/g)?.length ?? 0).toBeLessThanOrEqual(2);
    }
    const [ld] = jsonLd(pages[0] ?? "") as { name: string; address: { addressLocality: string } }[];
    expect([ld?.name, ld?.address.addressLocality]).toEqual([value, value]);
  });

  it("keeps U+2028 and U+2029 out of the script block as they are, and `<` too", () => {
    const text = scriptJson({ name: "a\u2028b\u2029</script>" });
    expect(text).not.toMatch(/[\u2028\u2029<>]/);
    expect(JSON.parse(text)).toEqual({ name: "a\u2028b\u2029</script>" });
  });

  it("writes XML text with its five entities and without the characters XML 1.0 forbids", () => {
    expect(escapeXml("a<b>&\"'\u0001\uFFFE")).toBe("a&lt;b&gt;&amp;&quot;&#39;");
  });
});

describe("the results page", () => {
  it("renders the list answer: the count, each result's name, town, OIB and contact, its page link, and the list's next link as its own", () => {
    const list = readListPage({
      count: 41,
      next: "https://x.org/api/subjekti/?limit=20&offset=20&search=lado",
      previous: null,
      results: [LADO],
    });
    expect(list).not.toBeNull();
    const html = resultsPage({ search: "lado" }, list ?? { kind: "refused", status: 500 });
    expect(html).toContain('<input id="search" name="search" type="search" autocomplete="off" spellcheck="false" value="lado">');
    expect(html).toContain('aria-live="polite">Pronađeno subjekata: 41.');
    expect(html).toContain('<a href="/subjekti/51/"><bdi>Ansambl narodnih plesova i pjesama Hrvatske LADO</bdi></a>');
    expect(html).toContain("<bdi>Zagreb</bdi> · OIB <bdi>28251263363</bdi> · <bdi>lado@lado.hr, info@lado.hr</bdi>");
    expect(html).toContain('<a rel="next" href="/trazi/?limit=20&amp;offset=20&amp;search=lado">');
    expect(html).toContain('<script src="/pretraga.js" defer></script>');
  });

  it("says so when the list refuses the query", () => {
    expect(resultsPage({}, { kind: "refused", status: 400 })).toContain("odgovor 400");
  });

  it("reads only a page envelope of subjects", () => {
    expect(readListPage({ count: 1, next: null, previous: null, results: [{ id: 1 }] })).toBeNull();
    expect(readSubject({ ...LADO, odobreno: "true" })).toBeNull();
  });
});

describe("the router's pages for people", () => {
  const manifest = { cacheControl: "public, max-age=60" } as Manifest;
  it.each([
    ["/subjekti/51/ -> the subject's page", "GET", "/subjekti/51/", "", { kind: "html", page: { kind: "subject", id: 51n } }],
    ["/subjekti/051/ (a leading zero) -> the 404 page", "GET", "/subjekti/051/", "", { kind: "html", page: { kind: "not-found" } }],
    ["/subjekti/x/ -> the 404 page", "GET", "/subjekti/x/", "", { kind: "html", page: { kind: "not-found" } }],
    ["/subjekti/ -> the 404 page", "GET", "/subjekti/", "", { kind: "html", page: { kind: "not-found" } }],
    ["/subjekti/51 -> 301 to its slash", "GET", "/subjekti/51", "", { kind: "respond", status: 301 }],
    ["/trazi?search=a -> 301 to /trazi/?search=a", "GET", "/trazi", "search=a", { kind: "respond", status: 301 }],
    ["POST /subjekti/51/ -> 405", "POST", "/subjekti/51/", "", { kind: "respond", status: 405 }],
    [
      "/trazi/?search=đ&razina=lokalna -> the results of that query",
      "GET",
      "/trazi/",
      "search=%C4%91&razina=lokalna&limit=5",
      {
        kind: "html",
        page: { kind: "results", query: "search=%C4%91&razina=lokalna&limit=5" },
      },
    ],
  ])("%s", (_name, method, path, query, expected) => {
    expect(routeHtml(method, path, query, manifest)).toMatchObject(expected);
  });

  it("reads the form's values from the results page's query as QueryDict does: the last value, + a space", () => {
    expect(searchValues("search=%C4%91+a&razina=lokalna&razina=nacionalna&limit=5")).toEqual({ search: "đ a", razina: "nacionalna" });
  });

  it("sends the redirect's Location, an HTML answer's Content-Security-Policy", () => {
    expect(routeHtml("GET", "/subjekti/51", "", manifest).headers).toContainEqual(["Location", "/subjekti/51/"]);
    expect(routeHtml("GET", "/subjekti/51/", "", manifest).headers).toContainEqual([
      "Content-Security-Policy",
      expect.stringContaining("script-src 'self'"),
    ]);
  });

  it("hands the pages for people to their own kind and leaves the API's paths to the API", () => {
    const request = { method: "GET", query: "", baseUrl: "https://x.org" };
    const full = {
      ...manifest,
      count: 0,
      dirs: {},
      limits: [20],
      forms: ["plain"],
      maxLimit: 100,
      chunkSize: 1000,
      baseUrl: "https://x.org",
    } as Manifest;
    expect(route({ ...request, path: "/subjekti/5/" }, full).kind).toBe("html");
    expect(route({ ...request, path: "/api/subjekti/5/" }, full).kind).toBe("find");
    expect(route({ ...request, path: "/other/" }, full).kind).toBe("static");
  });

  it("the 404 page is in both languages and not indexed", () => {
    const html = notFoundPage();
    expect(html).toContain("Stranica nije pronađena");
    expect(html).toContain('lang="en" class="en">/ Page not found');
    expect(html).toContain('<meta name="robots" content="noindex">');
  });
});

describe("the JSON-LD of a web contact", () => {
  it("names the web address as sameAs, no e-mail", () => {
    const ld = subjectJsonLd({ ...LADO, institucija_email: "www.lado.hr" }, "https://x.org");
    expect([ld["sameAs"], ld["email"]]).toEqual(["https://www.lado.hr", undefined]);
  });
});

describe("the JSON-LD read by a JSON-LD processor (jsonld-streaming-parser)", () => {
  /** schema.org's context offline: its terms are the vocabulary's (https://schema.org/docs/jsonldcontext.jsonld sets @vocab). */
  const documentLoader = {
    load: async (url: string): Promise<Record<string, unknown>> => {
      if (url !== "https://schema.org" && url !== "https://schema.org/") throw new Error(`no context ${url} offline`);
      return { "@context": { "@vocab": "https://schema.org/", id: "@id", type: "@type" } };
    },
  };

  async function triples(text: string): Promise<string[]> {
    const parser = new JsonLdParser({ documentLoader });
    const out: string[] = [];
    return new Promise((resolve, reject) => {
      parser.on("data", (q: Quad) => out.push(`${q.subject.value} ${q.predicate.value} ${q.object.value}`));
      parser.on("error", reject);
      parser.on("end", () => resolve(out));
      parser.write(text);
      parser.end();
    });
  }

  it.each([LADO, { ...LADO, naziv_subjekta: HOSTILE[0] ?? "", institucija_grad: HOSTILE[3] ?? "" }])(
    "the page's block gives the record's triples: %j",
    async (subject) => {
      const block = /<script type="application\/ld\+json">\n([^<]*)\n<\/script>/.exec(subjectPage(subject, FACTS))?.[1] ?? "";
      const found = await triples(block);
      const page = "https://subjekti.example/subjekti/51/";
      expect(found).toEqual(
        expect.arrayContaining([
          `${page} http://www.w3.org/1999/02/22-rdf-syntax-ns#type https://schema.org/GovernmentOrganization`,
          `${page} https://schema.org/name ${subject.naziv_subjekta}`,
          `${page} https://schema.org/taxID ${subject.oib}`,
          `${page} https://schema.org/foundingDate ${subject.datum_postanka}`,
        ]),
      );
      expect(found.some((t) => t.endsWith(`https://schema.org/addressLocality ${subject.institucija_grad}`))).toBe(true);
    },
  );
});
