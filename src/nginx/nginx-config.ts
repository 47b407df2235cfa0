/**
 * An nginx configuration for a built site: nginx answers the pre-rendered pages (and the published
 * description) straight from the site directory when a request is exactly one the router would
 * answer with that file, and hands every other request to `subjekti serve`.
 *
 * The router decides which requests those are: every candidate target (the queries our own
 * next/previous links produce, and the bare URL) goes through `route()` as nginx would see it, and
 * only the ones it answers with a file, with the headers it gives, become map entries. nginx then
 * serves a file only when everything else the router reads is known to change nothing: method GET,
 * the scheme and Host of the base URL exactly (case kept), an Accept that asks for compact JSON, no
 * conditional header (If-None-Match is answered by the router; nginx's own If-Match and
 * If-Unmodified-Since checks would answer 412), and the target byte for byte. When in doubt, it proxies.
 *
 * No I/O: the manifest comes in, the text goes out (nginx-command.ts reads and prints).
 */
import type { HeaderList } from "../core/answer-headers.ts";
import { COLLECTION_PATH, encodeLinkQuery } from "../core/build-links.ts";
import { FORMS } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import { negotiate } from "../core/negotiate.ts";
import { PUBLISHED_PATHS } from "../core/published-files.ts";
import { route } from "../core/route.ts";
import { VERSION } from "../core/version.ts";

export interface NginxOptions {
  /** The built site's absolute path: nginx's `root`. */
  readonly root: string;
  /** nginx's `listen` (a port, or address:port). */
  readonly listen: string;
  /** nginx's `server_name` (space-separated names; `_` for any). */
  readonly serverName: string;
  /** Where `subjekti serve` listens: host:port, or unix:/path. */
  readonly upstream: string;
}

/** A target nginx answers from a file: the file (a site path) and the headers that differ from target to target. */
export interface StaticEntry {
  readonly target: string;
  readonly file: string;
  readonly etag: string;
  readonly tags: string;
  /** The location block that serves it: the collection, or one published file. */
  readonly location: string;
  /** The headers every answer of that location carries (all but ETag and the cache tags). */
  readonly headers: HeaderList;
}

/** Headers that differ between the pages of one location: they come from the entry's map values. */
const PER_TARGET = new Set(["etag", "netlify-cache-tag", "cache-tag"]);

/**
 * `Accept` values nginx may answer from a file (compact JSON): none, and what curl, fetch, axios and
 * browsers send. Each is checked against the negotiation itself (nginx's map ignores case, so both
 * cases are checked); anything else goes to `subjekti serve`.
 */
export const STATIC_ACCEPTS = [
  "",
  "*/*",
  "application/json",
  "application/json, text/plain, */*",
  "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
].filter((accept) => [accept, accept.toUpperCase(), accept.toLowerCase()].every((variant) => negotiate(variant) === 0));

/** The targets our links and the bare URLs name, each with the file and headers the router answers it with. */
export function staticEntries(manifest: Manifest): StaticEntry[] {
  const entries: StaticEntry[] = [];
  const add = (path: string, query: string): void => {
    const decision = route({ method: "GET", path, query, accept: null, ifNoneMatch: null, origin: null, accessControlRequestMethod: null, accessControlRequestHeaders: null, baseUrl: manifest.baseUrl }, manifest);
    if (decision.kind !== "file") return;
    const value = (name: string): string => decision.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? "";
    entries.push({
      target: query === "" ? path : `${path}?${query}`,
      file: `/${decision.path}`,
      etag: value("etag"),
      tags: value("cache-tag"),
      location: path,
      headers: decision.headers.filter(([name]) => !PER_TARGET.has(name.toLowerCase())),
    });
  };
  add(COLLECTION_PATH, "");
  for (const form of FORMS.filter((f) => manifest.forms.includes(f))) {
    const extras: [string, string][] = form === "plain" ? [] : [["format", form]];
    if (form !== "plain") add(COLLECTION_PATH, `format=${form}`);
    for (const limit of manifest.limits) {
      // The first page is linked without an offset (a previous link), every other one with it (a next link).
      add(COLLECTION_PATH, encodeLinkQuery(extras, limit, null));
      for (let offset = limit; offset < manifest.count; offset += limit) add(COLLECTION_PATH, encodeLinkQuery(extras, limit, BigInt(offset)));
    }
  }
  for (const path of PUBLISHED_PATHS) add(path, "");
  return entries;
}

/** nginx's configuration for the site described by `manifest`, to include at the `http {}` level. */
export function nginxConfig(manifest: Manifest, options: NginxOptions): string {
  const entries = staticEntries(manifest);
  const locations = new Map<string, HeaderList>();
  for (const entry of entries) {
    const known = locations.get(entry.location);
    if (known === undefined) locations.set(entry.location, entry.headers);
    // One location's headers are one set of add_header lines: the router must agree.
    else if (JSON.stringify(known) !== JSON.stringify(entry.headers)) throw new Error(`the router gives ${entry.target} other headers than the rest of ${entry.location}`);
  }
  const lines = [
    `# subjekti ${VERSION}: nginx in front of \`subjekti serve\` for the site in ${options.root}`,
    `# (built for ${manifest.baseUrl}, ${manifest.count} subjects, site hash ${manifest.hash.slice(0, 12)}).`,
    "# Include it inside http { }. It names this build's files: after every build, generate it again",
    "# and reload nginx (nginx -s reload), and restart `subjekti serve` (or run it with --watch).",
    "#",
    "# nginx answers a pre-rendered page from the site directory only for a GET, on the base URL's",
    "# scheme and Host, whose target is exactly one our next/previous links produce (or the bare URL),",
    "# with an Accept that asks for compact JSON and no conditional header; it sends the headers",
    "# `subjekti serve` would send. Every other request goes to `subjekti serve`, which answers all of them.",
    "",
    // nginx refuses to start when a map's hash has no room for its entries or its longest key.
    `map_hash_max_size ${powerOfTwo(2048, entries.length * 2)};`,
    `map_hash_bucket_size ${powerOfTwo(64, Math.max(...[...entries.map((e) => e.target), ...STATIC_ACCEPTS].map((key) => key.length)) + 32)};`,
    "",
    "upstream subjekti_serve {",
    `    server ${options.upstream};`,
    "    keepalive 16;",
    "}",
    "",
    "# The target as sent -> 'target file etag tags' (a map ignores case: $subjekti_file checks it).",
    "map $request_uri $subjekti_entry {",
    '    default "";',
    ...entries.map((e) => `    ${quote(e.target)} ${quote(`${e.target} ${e.file} ${e.etag} ${e.tags}`)};`),
    "}",
    "",
    "# The Host to hand on: as sent; without one (HTTP/1.0), nginx's own address, as `subjekti serve` uses its own.",
    "map $http_host $subjekti_host {",
    "    default $http_host;",
    '    "" $server_addr:$server_port;',
    "}",
    "",
    "# GET on the base URL's scheme and Host exactly, without a conditional header.",
    'map "$request_method $scheme://$http_host $http_if_none_match$http_if_match$http_if_unmodified_since" $subjekti_gate {',
    "    default 0;",
    `    ${quote(`~^GET ${escapeRegex(manifest.baseUrl)} $`)} 1;`,
    "}",
    "",
    "# Accept headers that ask for compact JSON.",
    "map $http_accept $subjekti_accept {",
    "    default 0;",
    ...STATIC_ACCEPTS.map((accept) => `    ${quote(accept)} 1;`),
    "}",
    "",
    "# The file to send, when the gate is open and the target is the entry's byte for byte (a regex is case-sensitive).",
    'map "$subjekti_gate$subjekti_accept $request_uri $subjekti_entry" $subjekti_file {',
    '    default "";',
    `    ${quote("~^11 (\\S+) \\1 (\\S+) ")} $2;`,
    "}",
    "map $subjekti_entry $subjekti_etag {",
    '    default "";',
    `    ${quote("~^\\S+ \\S+ (\\S+) ")} $1;`,
    "}",
    "map $subjekti_entry $subjekti_tags {",
    '    default "";',
    `    ${quote("~ (\\S+)$")} $1;`,
    "}",
    "",
    "server {",
    `    listen ${options.listen};`,
    `    server_name ${options.serverName};`,
    `    root ${quote(options.root)};`,
    "    # Long queries are answered (the links carry every parameter), as `subjekti serve` answers them.",
    "    large_client_header_buffers 4 128k;",
    "    # The files as they are, with no header of nginx's own that `subjekti serve` would not send: no",
    "    # ranges, no compression, no Last-Modified and no answers of its own to conditional headers.",
    "    types { }",
    "    charset off;",
    "    gzip off;",
    "    ssi off;",
    "    expires off;",
    "    etag off;",
    "    if_modified_since off;",
    "    max_ranges 0;",
    "",
    "    # Everything goes to `subjekti serve` with the target and Host as sent; the scheme it was sent on too.",
    "    proxy_http_version 1.1;",
    '    proxy_set_header Connection "";',
    "    proxy_set_header Host $subjekti_host;",
    "    proxy_set_header X-Forwarded-Proto $scheme;",
    "    proxy_redirect off;",
    "",
    "    location / {",
    "        proxy_pass http://subjekti_serve;",
    "    }",
    "    location @subjekti {",
    "        proxy_pass http://subjekti_serve;",
    "    }",
    ...[...locations].flatMap(([location, headers]) => ["", ...staticLocation(location, headers)]),
    "}",
    "",
  ];
  return lines.join("\n");
}

/** A location that sends the entry's file with exactly the router's headers, or hands the request on. */
function staticLocation(location: string, headers: HeaderList): string[] {
  const contentType = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "application/octet-stream";
  const rest = headers.filter(([name]) => name.toLowerCase() !== "content-type");
  return [
    `    location = ${location} {`,
    "        error_page 403 404 418 = @subjekti;",
    '        if ($subjekti_file = "") {',
    "            return 418;",
    "        }",
    "        try_files $subjekti_file @subjekti;",
    `        default_type ${quote(contentType)};`,
    '        add_header Last-Modified "";',
    ...rest.map(([name, value]) => `        add_header ${name} ${quote(value)};`),
    "        add_header ETag $subjekti_etag;",
    "        add_header Netlify-Cache-Tag $subjekti_tags;",
    "        add_header Cache-Tag $subjekti_tags;",
    "    }",
  ];
}

/** The least power of two from `start` up that is at least `least`. */
function powerOfTwo(start: number, least: number): number {
  let size = start;
  while (size < least) size *= 2;
  return size;
}

/** An nginx string: single-quoted (the values hold double quotes, never a single quote or a backslash escape). */
function quote(text: string): string {
  if (text.includes("'")) throw new Error(`cannot quote ${JSON.stringify(text)} for nginx`);
  return `'${text}'`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
