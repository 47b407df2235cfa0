/**
 * The Netlify edge function of `/api/subjekti/` (declared in netlify.toml for `/api/subjekti` and
 * `/api/*`). Netlify's shape lives here only; the answer itself is the core's handler
 * (src/core/answer-request.ts), the files reached through the CDN (`src/core/cdn-site.ts`).
 *
 * Every site file (the manifest, a page, a records chunk) is fetched through `context.next()`
 * with a rewritten GET request: Netlify serves it from the CDN without leaving the platform, and
 * a returned `URL` alone could not set our headers (DESIGN.md, "Hosting facts").
 */
import { answerFetch, type FetchSite } from "../core/answer-request.ts";
import { cdnSite, type FetchFile, ManifestCache, rangeHeader } from "../core/cdn-site.ts";

/** The part of Netlify's `Context` this function uses (no npm types: the bundle imports nothing). */
export interface EdgeContext {
  next(request?: Request): Promise<Response>;
}

/** Request headers that would make the CDN answer 304 or 206 instead of the file's bytes. */
const CONDITIONAL_HEADERS = ["if-none-match", "if-match", "if-modified-since", "if-unmodified-since", "if-range", "range"];

/** The manifest of this instance. */
const manifests = new ManifestCache();

/** The site over Netlify's context: files through rewritten `context.next()` calls. */
export function netlifySite(request: Request, context: EdgeContext): FetchSite {
  const fetchFile: FetchFile = (path, range) => {
    const headers = new Headers(request.headers);
    for (const name of CONDITIONAL_HEADERS) headers.delete(name);
    // Part of a records chunk: the CDN may answer 206 with it, or 200 with the whole file.
    if (range !== undefined) headers.set("range", rangeHeader(range));
    // Identity bytes, so the CDN's Content-Length is the body's; Netlify compresses our answer itself.
    headers.delete("accept-encoding");
    return context.next(new Request(new URL(`/${path}`, request.url), { method: "GET", headers }));
  };
  return cdnSite(fetchFile, () => context.next(), manifests);
}

export default function subjekti(request: Request, context: EdgeContext): Promise<Response> {
  return answerFetch(request, netlifySite(request, context));
}
