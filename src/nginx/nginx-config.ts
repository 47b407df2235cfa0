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
import { DOWNLOAD_KINDS, staticFileHeaders } from "../core/download-files.ts";
import { etagAt } from "../core/etag.ts";
import { type EtagLine, FORMS } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import { negotiate } from "../core/request/negotiate.ts";
import { PUBLISHED_PATHS } from "../core/published-files.ts";
import { route } from "../core/route.ts";
import { VERSION } from "../core/version.ts";

export interface NginxOptions {
  /** The built site's absolute path: nginx's `root`. */
  readonly root: string;
  /** nginx's `listen`: a port or address:port, with its parameters (`443 ssl http2`). */
  readonly listen: string;
  /**
   * The prefix of every name the configuration gives (the upstream, each variable, the TLS session
   * cache): two sites (production and staging) each with their own name share one nginx.
   */
  readonly name?: string;
  /** The certificate and its key, for a `listen … ssl` (PEM paths nginx reads). */
  readonly sslCertificate?: string | undefined;
  readonly sslCertificateKey?: string | undefined;
  /** Compress JSON answers for clients that accept gzip (nginx's gzip; the decoded bytes are the same). Default on. */
  readonly gzip?: boolean;
  /** nginx's `server_name` (space-separated names; `_` for any). */
  readonly serverName: string;
  /** Where `subjekti serve` listens: host:port, or unix:/path. */
  readonly upstream: string;
  /** The text of a site file the build wrote (a shard's tag list, etag.ts), or null when it is missing. */
  readonly readText: ReadText;
}

/** Reads a site file's text (a site path such as `_subjekti/…/etags.txt`); null when it is missing. */
export type ReadText = (path: string) => string | null;

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

/**
 * The targets our links and the bare URLs name, each with the file and headers the router answers
 * it with, and the ETag the build wrote for that file (read through `readText`; "" without it).
 */
export function staticEntries(manifest: Manifest, readText?: ReadText): StaticEntry[] {
  const entries: StaticEntry[] = [];
  // A shard's tag list serves up to a thousand pages: each is read once.
  const lists = new Map<string, string>();
  const etagOf = (line: EtagLine): string => {
    if (readText === undefined) return "";
    let list = lists.get(line.path);
    if (list === undefined) {
      list = readText(line.path) ?? "";
      lists.set(line.path, list);
    }
    const etag = etagAt(list, line.index);
    if (etag === null) throw new Error(`the site has no ETag for its file ${line.index} in ${line.path}: build it again`);
    return etag;
  };
  const add = (path: string, query: string): void => {
    const decision = route(
      {
        method: "GET",
        path,
        query,
        accept: null,
        ifNoneMatch: null,
        origin: null,
        accessControlRequestMethod: null,
        accessControlRequestHeaders: null,
        baseUrl: manifest.baseUrl,
      },
      manifest,
    );
    if (decision.kind !== "file") return;
    const value = (name: string): string => decision.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? "";
    entries.push({
      target: query === "" ? path : `${path}?${query}`,
      file: `/${decision.path}`,
      etag: etagOf(decision.etag),
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
      for (let offset = limit; offset < manifest.count; offset += limit)
        add(COLLECTION_PATH, encodeLinkQuery(extras, limit, BigInt(offset)));
    }
  }
  for (const path of PUBLISHED_PATHS) add(path, "");
  return entries;
}

/** The name prefix when none is given. */
export const DEFAULT_NAME = "subjekti";

/** The header marking an answer nginx sent from a file (`subjekti check` counts those that lack it). */
export const SOURCE_HEADER = "X-Subjekti-Source";

/**
 * The header naming the build a configuration was generated for (its site hash), on the downloads
 * nginx sends: their stable paths outlive a data change, so an older configuration still says
 * which build it names when none of its page files is left (`subjekti check` reads it).
 */
export const SITE_HEADER = "X-Subjekti-Site";

/**
 * The types nginx compresses besides text/html, which gzip_types always includes (naming it again
 * makes `nginx -t` warn `duplicate MIME type "text/html"`): every JSON answer of the API and the
 * published description.
 */
const GZIP_TYPES = ["application/json", "application/x-ndjson", "application/schema+json"];

/**
 * The map sizes this configuration needs at nginx's `http {}` level. They are not written into it:
 * `map_hash_*` may appear once in http {}, so two included configurations (or an nginx.conf that
 * sets them) would collide. The deployer sets them once, at least this large (the comment says so).
 */
export function mapHashSizes(
  manifest: Manifest,
  entries: readonly StaticEntry[] = staticEntries(manifest),
): { maxSize: number; bucketSize: number } {
  return {
    maxSize: powerOfTwo(2048, entries.length * 2),
    bucketSize: powerOfTwo(64, Math.max(...[...entries.map((e) => e.target), ...STATIC_ACCEPTS].map((key) => key.length)) + 32),
  };
}

/** nginx's configuration for the site described by `manifest`, to include at the `http {}` level. */
export function nginxConfig(manifest: Manifest, options: NginxOptions): string {
  const entries = staticEntries(manifest, options.readText);
  const name = options.name ?? DEFAULT_NAME;
  if (!/^[a-z][a-z0-9_]{0,39}$/.test(name)) throw new Error(`"${name}" is no name for nginx's variables (a-z, 0-9, _)`);
  const tls = /(?:^|\s)ssl(?:\s|$)/.test(options.listen);
  if (tls && (options.sslCertificate === undefined || options.sslCertificateKey === undefined))
    throw new Error(`listen ${options.listen} needs a certificate and its key`);
  if (!tls && (options.sslCertificate !== undefined || options.sslCertificateKey !== undefined))
    throw new Error(`a certificate needs a listen with ssl (such as 443 ssl), not ${options.listen}`);
  const lines = [
    ...headComment(manifest, options, name, mapHashSizes(manifest, entries)),
    "",
    ...upstreamAndMaps(manifest, options, name, entries),
    ...serverBlock(manifest, options, name, tls, locationHeaders(entries)),
  ];
  return lines.join("\n");
}

/** Each location's headers, the same for every entry in it (the router must agree). */
function locationHeaders(entries: readonly StaticEntry[]): Map<string, HeaderList> {
  const locations = new Map<string, HeaderList>();
  for (const entry of entries) {
    const known = locations.get(entry.location);
    if (known === undefined) locations.set(entry.location, entry.headers);
    // One location's headers are one set of add_header lines: the router must agree.
    else if (JSON.stringify(known) !== JSON.stringify(entry.headers))
      throw new Error(`the router gives ${entry.target} other headers than the rest of ${entry.location}`);
  }
  return locations;
}

/** The comment at the top: what the file is for, how to include and renew it, the hash sizes nginx.conf must set. */
function headComment(manifest: Manifest, options: NginxOptions, name: string, sizes: ReturnType<typeof mapHashSizes>): string[] {
  return [
    `# subjekti ${VERSION}: nginx in front of \`subjekti serve\` for the site in ${options.root}`,
    `# (built for ${manifest.baseUrl}, ${manifest.count} subjects, site hash ${manifest.hash.slice(0, 12)}).`,
    "# Include it inside http { }. It names this build's files: after every build, generate it again",
    "# and reload nginx (nginx -s reload), and restart `subjekti serve` (or run it with --watch).",
    `# Every name it gives starts with ${name}_, so configurations of other names can sit beside it.`,
    "#",
    "# nginx.conf's http {} must set, once for every site it includes (at least these values):",
    `#     map_hash_max_size ${sizes.maxSize};`,
    `#     map_hash_bucket_size ${sizes.bucketSize};`,
    "#",
    "# nginx answers a pre-rendered page from the site directory only for a GET, on the base URL's",
    "# scheme and Host, whose target is exactly one our next/previous links produce (or the bare URL),",
    "# with an Accept that asks for compact JSON and no conditional header; it sends the headers",
    "# `subjekti serve` would send. Every other request goes to `subjekti serve`, which answers all of them.",
  ];
}

/** The upstream (`subjekti serve`) and the maps that decide, per request, whether nginx sends a file itself. */
function upstreamAndMaps(manifest: Manifest, options: NginxOptions, name: string, entries: readonly StaticEntry[]): string[] {
  const v = (variable: string): string => `$${name}_${variable}`;
  return [
    `upstream ${name}_serve {`,
    `    server ${options.upstream};`,
    "    keepalive 16;",
    "}",
    "",
    `# The target as sent -> 'target file etag tags' (a map ignores case: ${v("file")} checks it).`,
    `map $request_uri ${v("entry")} {`,
    '    default "";',
    ...entries.map((e) => `    ${quote(e.target)} ${quote(`${e.target} ${e.file} ${e.etag} ${e.tags}`)};`),
    "}",
    "",
    "# The Host to hand on: as sent; without one (HTTP/1.0), nginx's own address, as `subjekti serve` uses its own.",
    `map $http_host ${v("host")} {`,
    "    default $http_host;",
    '    "" $server_addr:$server_port;',
    "}",
    "",
    "# GET on the base URL's scheme and Host exactly, without a conditional header.",
    `map "$request_method $scheme://$http_host $http_if_none_match$http_if_match$http_if_unmodified_since" ${v("gate")} {`,
    "    default 0;",
    `    ${quote(`~^GET ${escapeRegex(manifest.baseUrl)} $`)} 1;`,
    "}",
    "",
    "# Accept headers that ask for compact JSON.",
    `map $http_accept ${v("accept")} {`,
    "    default 0;",
    ...STATIC_ACCEPTS.map((accept) => `    ${quote(accept)} 1;`),
    "}",
    "",
    "# The file to send, when the gate is open and the target is the entry's byte for byte (a regex is case-sensitive).",
    `map "${v("gate")}${v("accept")} $request_uri ${v("entry")}" ${v("file")} {`,
    '    default "";',
    `    ${quote("~^11 (\\S+) \\1 (\\S+) ")} $2;`,
    "}",
    `map ${v("entry")} ${v("etag")} {`,
    '    default "";',
    `    ${quote("~^\\S+ \\S+ (\\S+) ")} $1;`,
    "}",
    `map ${v("entry")} ${v("tags")} {`,
    '    default "";',
    `    ${quote("~ (\\S+)$")} $1;`,
    "}",
    "",
  ];
}

/** The server block: listen and TLS, nginx's own behaviours turned off, gzip, the proxy, the locations. */
function serverBlock(manifest: Manifest, options: NginxOptions, name: string, tls: boolean, locations: Map<string, HeaderList>): string[] {
  const v = (variable: string): string => `$${name}_${variable}`;
  return [
    "server {",
    `    listen ${options.listen};`,
    `    server_name ${options.serverName};`,
    `    root ${quote(options.root)};`,
    ...(tls
      ? [
          `    ssl_certificate ${quote(options.sslCertificate as string)};`,
          `    ssl_certificate_key ${quote(options.sslCertificateKey as string)};`,
          "    ssl_protocols TLSv1.2 TLSv1.3;",
          `    ssl_session_cache shared:${name}_tls:10m;`,
        ]
      : []),
    "    # Long queries are answered (the links carry every parameter), as `subjekti serve` answers them.",
    "    large_client_header_buffers 4 128k;",
    "    # The files as they are, with no header of nginx's own that `subjekti serve` would not send: no",
    "    # ranges, no Last-Modified and no answers of its own to conditional headers.",
    "    types { }",
    "    charset off;",
    ...((options.gzip ?? true)
      ? [
          "    # Compressed for clients that ask (Accept-Encoding: gzip), files and serve's answers alike: the",
          "    # decoded bytes are the contract's; the ETag becomes weak (W/), which If-None-Match compares",
          "    # weakly anyway; Vary gains Accept-Encoding, so caches keep both.",
          "    gzip on;",
          `    gzip_types ${GZIP_TYPES.join(" ")};`,
          "    gzip_proxied any;",
          "    gzip_vary on;",
          "    gzip_min_length 1024;",
          "    gzip_comp_level 5;",
        ]
      : ["    gzip off;"]),
    "    ssi off;",
    "    expires off;",
    "    etag off;",
    "    if_modified_since off;",
    "    max_ranges 0;",
    "",
    "    # Everything goes to `subjekti serve` with the target and Host as sent; the scheme it was sent on too.",
    "    proxy_http_version 1.1;",
    '    proxy_set_header Connection "";',
    `    proxy_set_header Host ${v("host")};`,
    "    proxy_set_header X-Forwarded-Proto $scheme;",
    "    proxy_redirect off;",
    "",
    "    location / {",
    `        proxy_pass http://${name}_serve;`,
    "    }",
    `    location @${name} {`,
    `        proxy_pass http://${name}_serve;`,
    "    }",
    ...[...locations].flatMap(([location, headers]) => ["", ...staticLocation(location, headers, name)]),
    ...downloadLocations(manifest, name),
    "}",
    "",
  ];
}

/** A location that sends the entry's file with exactly the router's headers, or hands the request on. */
function staticLocation(location: string, headers: HeaderList, name: string): string[] {
  const v = (variable: string): string => `$${name}_${variable}`;
  const contentType = headers.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "application/octet-stream";
  const rest = headers.filter(([name]) => name.toLowerCase() !== "content-type");
  return [
    `    location = ${location} {`,
    `        error_page 403 404 418 = @${name};`,
    `        if (${v("file")} = "") {`,
    "            return 418;",
    "        }",
    `        try_files ${v("file")} @${name};`,
    `        default_type ${quote(contentType)};`,
    '        add_header Last-Modified "";',
    ...rest.map(([name, value]) => `        add_header ${name} ${quote(value)};`),
    `        add_header ETag ${v("etag")};`,
    `        add_header Netlify-Cache-Tag ${v("tags")};`,
    `        add_header Cache-Tag ${v("tags")};`,
    "        # Sent from a file: `subjekti check` counts the answers that should carry it and do not.",
    `        add_header ${SOURCE_HEADER} file;`,
    "    }",
  ];
}

/**
 * The downloads, sent by nginx itself (sendfile, and byte ranges: a client resumes a large
 * download), each at its stable and its content-named path, with the table's headers and the
 * file's SHA-256 as its strong ETag, answered with a 304 when If-None-Match names it. Older
 * content-named files go to `subjekti serve` like every other path, and so does what nginx would
 * refuse with a page of its own (OPTIONS, a range past the end) or find gone.
 */
function downloadLocations(manifest: Manifest, name: string): string[] {
  const downloads = manifest.downloads ?? [];
  // A range past the end: serve's bodiless 416, with nginx's own Content-Range (bytes */<size>) only.
  const unsatisfiable = [
    "",
    `    location @${name}_unsatisfiable {`,
    `        proxy_pass http://${name}_serve;`,
    "        proxy_hide_header Content-Range;",
    "    }",
  ];
  return [
    ...(downloads.length > 0 ? unsatisfiable : []),
    ...downloads.flatMap((download) =>
      [download.path, download.immutablePath].flatMap((path) => [
        "",
        `    location = ${path} {`,
        // A method other than GET and HEAD (a CORS preflight) and a file gone: serve's answers.
        `        error_page 404 405 = @${name};`,
        `        error_page 416 = @${name}_unsatisfiable;`,
        `        default_type ${quote(DOWNLOAD_KINDS[download.format].mediaType)};`,
        "        max_ranges 1;",
        "        etag off;",
        ...(staticFileHeaders(path) ?? []).map(([header, value]) => `        add_header ${header} ${quote(value)} always;`),
        `        add_header ETag ${quote(`"${download.sha256}"`)} always;`,
        `        add_header ${SITE_HEADER} ${quote(manifest.hash)} always;`,
        // nginx compares If-None-Match with its own ETag only (off here: it is mtime and size), not one added.
        `        if ($http_if_none_match ~ ${quote(download.sha256)}) {`,
        "            return 304;",
        "        }",
        "    }",
      ]),
    ),
  ];
}

/** The least power of two from `start` up that is at least `least`. */
function powerOfTwo(start: number, least: number): number {
  let size = start;
  while (size < least) size *= 2;
  return size;
}

/**
 * An nginx string: single-quoted (the values hold double quotes), or double-quoted when it holds
 * single quotes (the Content-Security-Policy) and no double quote, `$` or backslash nginx would read.
 */
function quote(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (/["$\\]/.test(text)) throw new Error(`cannot quote ${JSON.stringify(text)} for nginx`);
  return `"${text}"`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
