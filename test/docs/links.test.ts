/**
 * The README and the manual hold together: every relative link in README.md, BENCHMARKS.md and
 * docs/*.md reaches a file or directory of the repository, and its `#anchor` a heading of the page
 * it names (as GitHub makes a heading's anchor), so moving a section cannot leave a link behind.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const PAGES = [
  "README.md",
  "BENCHMARKS.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The page's lines outside fenced code blocks, with their line numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  let fenced = false;
  const lines: { text: string; line: number }[] = [];
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    else if (!fenced) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page's headings make; a repeated one gets -1, -2, … as on GitHub. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** The relative targets of a page's links (inline and reference definitions), outside code. */
function links(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push({ target: match[1] ?? "", line });
    const definition = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose)?.[1];
    if (definition !== undefined) found.push({ target: definition, line });
  }
  return found.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link from `page`, or undefined when it resolves. */
function broken(page: string, target: string): string | undefined {
  const [path = "", anchor] = target.split("#", 2);
  const file = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
  if (!existsSync(file)) return "no such file";
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(file).isDirectory() || !file.endsWith(".md")) return "an anchor into a page that is not markdown";
  return anchors(readFileSync(file, "utf8")).has(decodeURIComponent(anchor)) ? undefined : "no such heading";
}

describe("links in the README and the manual", () => {
  it.each(PAGES)("every relative link in %s resolves", (page) => {
    const problems = links(readFileSync(join(ROOT, page), "utf8")).flatMap(({ target, line }) => {
      const why = broken(page, target);
      return why === undefined ? [] : [`${page}:${line}: ${target}: ${why}`];
    });
    expect(problems).toEqual([]);
  });

  it("makes anchors as GitHub does", () => {
    expect(slug("`subjekti check <url> [options]`")).toBe("subjekti-check-url-options");
    expect(slug("subjekti — the Registry of Subjects as a static JSON API")).toBe(
      "subjekti--the-registry-of-subjects-as-a-static-json-api",
    );
    expect(slug("Start-up: what `--help`, `--version` and a usage error load")).toBe(
      "start-up-what---help---version-and-a-usage-error-load",
    );
    expect(slug("Export with its read-back (57,580 subjects)")).toBe("export-with-its-read-back-57580-subjects");
    expect([...anchors("# A\n## A\n```\n# not a heading\n```\n## A\n")]).toEqual(["a", "a-1", "a-2"]);
  });

  it("finds a link that does not resolve", () => {
    expect(broken("docs/data.md", "no-such-page.md")).toBe("no such file");
    expect(broken("docs/data.md", "hosting.md#no-such-heading")).toBe("no such heading");
    expect(broken("docs/data.md", "hosting.md#self-hosted-nginx")).toBeUndefined();
    expect(broken("README.md", "docs/")).toBeUndefined();
  });
});
