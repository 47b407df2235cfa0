/**
 * The Cloudflare Worker of `/api/*` (wrangler.jsonc: the Worker runs first on the paths the router
 * answers, static assets serve the rest). Cloudflare's shape lives here only; the answer is the
 * core's handler (src/core/answer-request.ts), the site's files read through the static assets
 * binding, `env.ASSETS.fetch`, as the Netlify edge reads them through its CDN.
 */
import { answerFetch, answersPath, type FetchSite } from "../core/answer-request.ts";
import { cdnSite, type FetchFile, ManifestCache, rangeHeader } from "../core/cdn-site.ts";
import { staticFileHeaders } from "../core/download-files.ts";

/** The static assets binding: `dist/` as Cloudflare serves it (no npm types: the bundle needs none). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/** The Worker's bindings (wrangler.jsonc's `assets.binding`). */
export interface WorkerEnv {
  readonly ASSETS: AssetsBinding;
}

/** The manifest of this isolate: fetched once, again when a file it names is gone (a later deploy). */
const manifests = new ManifestCache();

/** The site over the assets binding: every file a plain GET of its path, the static site the request itself. */
export function assetsSite(request: Request, assets: AssetsBinding): FetchSite {
  // A bare GET: no client header can make the assets answer 304, 206 or compressed bytes instead of
  // the file; a Range only when the core asks for part of a records chunk.
  const fetchFile: FetchFile = (path, range) =>
    assets.fetch(
      new Request(new URL(`/${path}`, request.url), range === undefined ? undefined : { headers: { Range: rangeHeader(range) } }),
    );
  return cdnSite(fetchFile, () => assets.fetch(request), manifests);
}

/**
 * The assets' answer (its bytes, status, ETag and Range handling untouched), with the headers the
 * table gives the change feed's files and the downloads (CORS, Cache-Control); any other path as it is.
 */
async function withStaticHeaders(request: Request, answer: Promise<Response>): Promise<Response> {
  const extra = staticFileHeaders(new URL(request.url).pathname);
  const response = await answer;
  if (extra === undefined || response.status >= 400) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of extra) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export default {
  /** Answers one request: the router's paths by the core's handler, any other path exactly as the static assets do. */
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    // Cloudflare runs the Worker on every path no asset matches too: those stay the assets' own answer.
    if (!answersPath(request)) return withStaticHeaders(request, env.ASSETS.fetch(request));
    return answerFetch(request, assetsSite(request, env.ASSETS));
  },
};
