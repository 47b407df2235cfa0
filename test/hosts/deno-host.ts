/**
 * The edge function under real Deno, standing in for Netlify's edge: `Deno.serve()` on 127.0.0.1,
 * `/_subjekti/*` served statically from the built site like the CDN would, and `/api/*` answered
 * by the edge function's default export with a context whose `next()` serves the rewritten file.
 *
 *   deno run --allow-net=127.0.0.1 --allow-read=<site> --no-remote test/hosts/deno-host.ts <site>
 *
 * Prints `{"port":N}` on one line once it listens. Runs under Deno only (vitest spawns it).
 */
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";
import { HTML_ROUTE_PATTERNS } from "../../src/core/html/html-routes.ts";
import subjekti from "../../src/edge/subjekti.ts";
import { refuseConditional } from "./conditional-headers.ts";

/** The few Deno APIs used here (tsc checks this file with Node's types, Deno runs it untyped). */
declare const Deno: {
  readonly args: readonly string[];
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
  open(path: string): Promise<{ stat(): Promise<{ isFile: boolean; size: number }>; readable: ReadableStream<Uint8Array>; close(): void }>;
};

const site = Deno.args[0];
if (site === undefined) throw new Error("usage: deno-host.ts <built site dir>");

const TYPES: Record<string, string> = { json: "application/json", ndjson: "application/x-ndjson" };

/** The CDN: a file of the built site, streamed, or 404. Only `/_subjekti/` is published here. */
async function serveFile(url: URL): Promise<Response> {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return new Response("Bad Request", { status: 400 });
  }
  if (!path.startsWith("/_subjekti/") || path.split("/").includes("..") || path.includes("\0")) {
    return new Response("Not Found", { status: 404 });
  }
  try {
    const file = await Deno.open(site + path);
    const info = await file.stat();
    if (!info.isFile) {
      file.close();
      return new Response("Not Found", { status: 404 });
    }
    const type = TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";
    return new Response(file.readable, { headers: { "Content-Type": type, "Content-Length": String(info.size) } });
  } catch {
    return new Response("Not Found", { status: 404 });
  }
}

Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(JSON.stringify({ port })) }, async (request) => {
  const url = new URL(request.url);
  // The paths netlify.toml gives the edge function.
  if (
    url.pathname === "/api" ||
    url.pathname === "/api/subjekti" ||
    url.pathname.startsWith("/api/") ||
    PUBLISHED_PATHS.includes(url.pathname) ||
    HTML_ROUTE_PATTERNS.some((pattern) =>
      pattern.endsWith("*") ? url.pathname.startsWith(pattern.slice(0, -1)) : url.pathname === pattern,
    )
  ) {
    return subjekti(request, {
      next(rewritten?: Request) {
        if (rewritten === undefined) return serveFile(url);
        const target = new URL(rewritten.url);
        // Netlify refuses to rewrite to another origin; so does this stand-in.
        if (target.origin !== url.origin) throw new Error(`rewrite to another origin: ${target.origin}`);
        const refused = refuseConditional(target.pathname, rewritten.headers);
        if (refused !== null) return Promise.resolve(refused);
        return serveFile(target);
      },
    });
  }
  return serveFile(url);
});
