/**
 * The deploy preflight: before a build writes anything, its files are checked against the limits
 * of the host it is meant for (`--target`), and when they do not fit, the cheapest options that
 * do are named. Only limits the hosts document are checked; every number cites its page.
 *
 * Pure: it sees the site only through `shapeOf` (site-shape.ts), so the table test can hand it
 * any shape.
 */
import { msg, type Message } from "../common/messages/message.ts";
import type { Form } from "../core/layout.ts";
import { DEFAULT_LIMIT } from "../core/request/read-query.ts";
import type { LinkKind, ShapeOptions, SiteShape } from "./site-shape.ts";

import type { Target } from "./targets.ts";

export { isTarget, type Target, TARGETS } from "./targets.ts";

/** What a host documents about a deployment; a limit it does not document is absent, never guessed. */
export interface HostLimits {
  /** The host as a person names it, in the maintainer's language. */
  readonly name: Message;
  readonly filesPerDeployment?: number;
  readonly filesPerDirectory?: number;
  readonly bytesPerFile?: number;
  /** The host serves files as they are and cannot route by query: only a site of plain files (`--links files`) works. */
  readonly filesOnly?: boolean;
  /** Where the limits are documented. */
  readonly source?: string;
}

const MIB = 1024 * 1024;

export const HOST_LIMITS: Readonly<Record<Target, HostLimits>> = {
  none: { name: msg("host.none") },
  // "While Netlify doesn't have a limit on the number of files per deploy, we do have a limit of
  // 54,000 files per directory." It states no hard limit on a file's size.
  netlify: { name: msg("host.netlify"), filesPerDirectory: 54_000, source: "https://docs.netlify.com/site-deploys/overview/" },
  "cloudflare-free": {
    name: msg("host.cloudflare-free"),
    filesPerDeployment: 20_000,
    bytesPerFile: 25 * MIB,
    source: "https://developers.cloudflare.com/workers/platform/limits/",
  },
  "cloudflare-paid": {
    name: msg("host.cloudflare-paid"),
    filesPerDeployment: 100_000,
    bytesPerFile: 25 * MIB,
    source: "https://developers.cloudflare.com/workers/platform/limits/",
  },
  // GitHub Pages, S3 and a plain file server document no limit on files or files per directory.
  static: { name: msg("host.static"), filesOnly: true },
};

/** The options a preflight may change, with the largest limit a request gets. */
export interface PreflightOptions extends ShapeOptions {
  readonly maxLimit: number;
}

/** Options that fit, as flags to pass, with the site they make. */
export interface Fit {
  readonly flags: string;
  readonly files: number;
  /** What the option costs, when that is not plain from the flags. */
  readonly note?: Message;
}

export interface Preflight {
  readonly host: HostLimits;
  /** Each limit the site goes over, as a phrase (`101,005 files, over its 20,000 files a deployment`); empty when it fits. */
  readonly overruns: readonly Message[];
  /** Options that fit, the cheapest first: pre-rendering less of what was asked, then deriving every page, then one larger limit. */
  readonly fits: readonly Fit[];
}

/** The limits of `host` that a site of `shape` with `links` goes over. */
export function overruns(shape: SiteShape, host: HostLimits, links: LinkKind): Message[] {
  const over: Message[] = [];
  if (host.filesOnly === true && links === "query") over.push(msg("preflight.query-links"));
  if (host.filesPerDeployment !== undefined && shape.files > host.filesPerDeployment) {
    over.push(msg("preflight.files", { files: shape.files, max: host.filesPerDeployment }));
  }
  const dir = shape.fullestDirectory;
  if (host.filesPerDirectory !== undefined && dir.entries > host.filesPerDirectory) {
    over.push(msg("preflight.directory", { entries: dir.entries, path: dir.path, max: host.filesPerDirectory }));
  }
  const file = shape.largestFile;
  if (host.bytesPerFile !== undefined && file.bytes > host.bytesPerFile) {
    over.push(msg("preflight.file-bytes", { bytes: file.bytes, path: file.path, max: host.bytesPerFile }));
  }
  return over;
}

/** Every non-empty subset of `items` but the whole, largest first (at most 2^10 of them; beyond, each item alone). */
function subsets<T>(items: readonly T[]): T[][] {
  if (items.length > 10) return items.length > 1 ? items.map((item) => [item]) : [];
  const all: T[][] = [];
  for (let mask = 1; mask < (1 << items.length) - 1; mask++) all.push(items.filter((_, i) => (mask & (1 << i)) !== 0));
  return all.sort((a, b) => b.length - a.length);
}

/** The flags that turn `from` into `to`. */
function flagsOf(from: ShapeOptions, to: ShapeOptions): string {
  const flags: string[] = [];
  if (to.links !== from.links) flags.push(`--links ${to.links}`);
  if (to.links === "query" && to.limits.length > 0 && to.forms.join() !== from.forms.join()) flags.push(`--forms ${to.forms.join(",")}`);
  if (to.limits.join() !== from.limits.join()) flags.push(`--limits ${to.limits.length === 0 ? "none" : to.limits.join(",")}`);
  if ((from.downloads ?? 0) > 0 && (to.downloads ?? 0) === 0) flags.push("--downloads none");
  return flags.join(" ");
}

/** Checks a build with `options` against `host` (HOST_LIMITS[target]); `shapeOf` gives the site any options make. */
export function preflight(host: HostLimits, options: PreflightOptions, shapeOf: (options: ShapeOptions) => SiteShape): Preflight {
  const over = overruns(shapeOf(options), host, options.links);
  if (over.length === 0) return { host, overruns: [], fits: [] };

  const fits: Fit[] = [];
  // Downloads larger than the host takes a file cannot be helped by fewer pages: every option leaves them out.
  const bare = { ...options, limits: [] };
  const downloadsFit =
    (options.downloads ?? 0) === 0 ||
    overruns(shapeOf(bare), host, options.links).length === 0 ||
    overruns(shapeOf({ ...bare, downloads: 0 }), host, options.links).length > 0;
  const tryFit = (wanted: ShapeOptions, note?: Message): boolean => {
    const candidate: ShapeOptions = { ...wanted, downloads: downloadsFit ? (options.downloads ?? 0) : 0 };
    const shape = shapeOf(candidate);
    if (overruns(shape, host, candidate.links).length > 0) return false;
    fits.push({ flags: flagsOf(options, candidate), files: shape.files, ...(note === undefined ? {} : { note }) });
    return true;
  };
  // Only the downloads too large: the same pages without them.
  if (!downloadsFit && tryFit(options)) return { host, overruns: over, fits };
  const links: LinkKind = host.filesOnly === true ? "files" : options.links;
  const forms: readonly Form[] = links === "files" ? ["plain"] : options.forms;
  // The same pages, with the links the host can follow (a site of plain files needs a limit: DRF's default when none was asked).
  if (links !== options.links && tryFit({ ...options, links, limits: options.limits.length > 0 ? options.limits : [DEFAULT_LIMIT] })) {
    return { host, overruns: over, fits };
  }

  // Less of what was asked: the subset keeping the most files that fits.
  const fewer: ShapeOptions[] = [];
  for (const f of links === "files" ? [forms] : [forms, ...subsets(forms)]) {
    for (const l of [options.limits, ...subsets(options.limits)])
      if (f !== forms || l !== options.limits) fewer.push({ links, forms: f, limits: l });
  }
  const kept = fewer.map((o) => ({ o, files: shapeOf(o).files })).sort((a, b) => b.files - a.files);
  for (const { o } of kept) if (tryFit(o)) break;

  // Routed: every page derived from the record chunks, so no page file at all.
  if (links === "query") tryFit({ links, forms, limits: [] }, msg("preflight.all-derived"));

  // One larger limit, the smallest that fits: fewer, larger pages (requests for other limits are derived, or, with plain files, absent).
  const from = Math.max(0, ...options.limits) + 1;
  for (let limit = from; limit <= options.maxLimit; limit++) {
    const note = links === "files" ? msg("preflight.one-limit") : msg("preflight.other-limits-derived");
    if (tryFit({ links, forms: ["plain"], limits: [limit] }, note)) break;
  }
  return { host, overruns: over, fits };
}

/** The preflight's finding as one message: the host, each limit gone over, the options that fit. */
export function describePreflight(result: Preflight): Message {
  const { host, overruns: over, fits } = result;
  return msg("preflight.does-not-fit", {
    host: host.name,
    over,
    fits: fits.map((f) => msg("preflight.fit", { flags: f.flags, files: f.files, note: f.note })),
    source: host.source,
  });
}
