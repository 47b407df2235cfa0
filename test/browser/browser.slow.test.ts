/**
 * The API as a browser uses it, in real Chromium (Debian's `chromium`, driven by playwright-core;
 * browsers cannot be downloaded here, so the system one is used). A page on one origin fetches the
 * preview on another: a custom header and If-None-Match need a CORS preflight, the 304 reaches
 * the page and the ETag is readable; then the landing page is opened, screenshotted, and its link
 * to the API followed.
 *
 * Without chromium the test skips, saying so, unless SUBJEKTI_REQUIRE_BROWSER=1 (CI), where the
 * browser's absence fails it.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axe from "axe-core";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPreview, type Preview } from "../../src/serve/preview-server.ts";
import { buildFixture, COUNT } from "../hosts/fixture-site.ts";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const REQUIRED = process.env["SUBJEKTI_REQUIRE_BROWSER"] === "1";
const PRESENT = existsSync(CHROMIUM);
const SCREENSHOT = join(tmpdir(), "subjekti-landing.png");
if (!PRESENT && !REQUIRED) {
  console.warn(`browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

/** What the page reports back from its cross-origin fetches. */
interface Seen {
  readonly first: { status: number; etag: string | null; allow: string | null; count: number; next: string | null };
  readonly again: { status: number; etag: string | null };
}

/** The page's script: two fetches that each need a preflight (a custom header; If-None-Match). */
const PAGE = (api: string): string => `<!doctype html>
<title>another origin</title>
<script>
window.result = (async () => {
  const first = await fetch(${JSON.stringify(`${api}?limit=3`)}, { headers: { "X-Client": "browser-test" } });
  const body = await first.json();
  const etag = first.headers.get("ETag");
  const again = await fetch(${JSON.stringify(`${api}?limit=3`)}, { headers: { "If-None-Match": etag, "X-Client": "browser-test" } });
  return {
    first: { status: first.status, etag, allow: first.headers.get("Allow"), count: body.count, next: body.next },
    again: { status: again.status, etag: again.headers.get("ETag") },
  };
})().catch((error) => ({ error: String(error) }));
</script>`;

describe.skipIf(!PRESENT && !REQUIRED)("in real Chromium", () => {
  let site: Awaited<ReturnType<typeof buildFixture>>;
  let preview: Preview;
  let pageServer: Server;
  let pageOrigin: string;
  let browser: Browser;

  beforeAll(async () => {
    if (!PRESENT) throw new Error(`SUBJEKTI_REQUIRE_BROWSER=1 but no Chromium at ${CHROMIUM}`);
    site = await buildFixture();
    preview = await startPreview({ dir: site.dir, port: 0, host: "127.0.0.1" });
    // The page's own origin: the same address, another port, so every fetch to the preview is cross-origin.
    pageServer = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(PAGE(preview.url));
    });
    await new Promise<void>((done) => pageServer.listen(0, "127.0.0.1", done));
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (pageServer === undefined ? done() : pageServer.close(() => done())));
    await preview?.close();
    await site?.remove();
  });

  it("a page on another origin reads a page with a custom header, its ETag and Allow, and gets a 304 for If-None-Match", async () => {
    const page = await browser.newPage();
    const logged: string[] = [];
    page.on("console", (message) => logged.push(message.text()));
    await page.goto(`${pageOrigin}/`);
    const seen = (await page.evaluate("window.result")) as Seen | { error: string };
    await page.close();
    expect(seen, JSON.stringify(logged)).not.toHaveProperty("error");
    const { first, again } = seen as Seen;
    expect(first).toMatchObject({ status: 200, allow: "GET, HEAD, OPTIONS", count: COUNT });
    expect(first.etag).toMatch(/^"[^"]+"$/);
    // The links are on the origin the page fetched from, not the build's base URL.
    expect(first.next).toBe(`${new URL(preview.url).origin}/api/subjekti/?limit=3&offset=3`);
    expect(again).toEqual({ status: 304, etag: first.etag });
  });

  it("the landing page: a screenshot, the count, and a link that opens the API", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const origin = new URL(preview.url).origin;
    await page.goto(`${origin}/`);
    // Kept outside the repo for a person to look at: the last run's landing page.
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(await page.textContent("#count")).toBe(`${COUNT} subjekata`);
    await page.click(`a[href="/api/subjekti/?limit=5&offset=10"]`);
    const body = JSON.parse((await page.textContent("body")) ?? "") as { count: number; results: unknown[]; next: string };
    expect(page.url()).toBe(`${origin}/api/subjekti/?limit=5&offset=10`);
    expect([body.count, body.results.length, body.next]).toEqual([COUNT, 5, `${origin}/api/subjekti/?limit=5&offset=15`]);
    await page.close();
  });

  it("the landing page passes axe-core's WCAG 2.1 A and AA rules with no violation, in Croatian with English marked", async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    await page.goto(`${new URL(preview.url).origin}/`);
    // The page the build wrote, checked as served: axe-core evaluated in it (its Content-Security-Policy refuses an inline script element).
    await page.evaluate(axe.source);
    const result = (await page.evaluate(
      `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })`,
    )) as {
      violations: { id: string; nodes: { target: unknown }[] }[];
      passes: { id: string }[];
    };
    expect(result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)).toEqual([]);
    // The checks that matter here ran and passed: contrast, the language, headings in a table.
    expect(result.passes.map((p) => p.id)).toEqual(
      expect.arrayContaining(["color-contrast", "html-has-lang", "html-lang-valid", "valid-lang", "th-has-data-cells"]),
    );
    expect(await page.getAttribute("html", "lang")).toBe("hr");
    expect(await page.locator('[lang="en"]').count()).toBeGreaterThan(5);
    await page.screenshot({ path: join(tmpdir(), "subjekti-landing-full.png"), fullPage: true });
    await page.close();
  });
});
