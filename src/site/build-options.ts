/**
 * A build's options, resolved once: what a caller says (BuildOptions: the CLI's flags, the
 * watcher's manifest, a test), and what every stage takes (ResolvedBuildOptions: nested by
 * concern, every default in place), as vite's resolveBuildOptions. No stage applies a default
 * again: each takes its slice of the resolved options.
 */
import { DEFAULT_DOWNLOADS, type DownloadFormat } from "../core/download-files.ts";
import type { Form } from "../core/layout.ts";
import { type ReadOptions, type ResolvedReadOptions, resolveReadOptions } from "../data/read-options.ts";
import { DEFAULT_KEEP, type KeepChanges } from "../feed/keep-changes.ts";
import type { SiteOptions } from "./hand-offs.ts";
import type { LinkKind } from "./site-shape.ts";
import type { Target } from "./targets.ts";
import type { Trust } from "../common/trusted-fetch.ts";

/** What a caller says of a build: whatever it leaves out is DEFAULT_OPTIONS' or resolveBuildOptions' default. */
export interface BuildOptions extends Partial<ReadOptions> {
  readonly outDir?: string;
  /** Page sizes pre-rendered as files. */
  readonly limits?: readonly number[];
  /** Forms of `format` pre-rendered as files. */
  readonly forms?: readonly Form[];
  readonly maxLimit?: number;
  /** The public origin written into links (DEFAULT_BASE_URL when not given). */
  readonly baseUrl?: string;
  readonly cacheControl?: string;
  /** No progress bar (the CLI's: the build itself prints nothing). */
  readonly quiet?: boolean;
  /** Where the build cache is kept (build-cache.ts); null: no cache, every build reads everything. */
  readonly cacheDir?: string | null;
  /** How pages link: DRF's query URLs (default), or the page files' paths for hosts that cannot route (write-plain-site.ts). */
  readonly links?: LinkKind;
  /** The host whose limits the site is checked against before writing (deploy-preflight.ts); "none" when not given. */
  readonly target?: Target;
  /** Over the target's limits: stop with nothing written (default), or build anyway with a warning. */
  readonly overLimits?: "refuse" | "warn";
  /** Write the change feed (`changes/`); the CLI does unless --no-feed, a build called as a function only when asked. */
  readonly feed?: boolean;
  /** Where the last published feed is read from (a URL or a directory); the output directory when not given or when that has none. */
  readonly previous?: string;
  /** How an https `previous`'s certificate is checked (`--ca`, `--insecure`); the system's roots when not given. */
  readonly previousTrust?: Trust;
  /** How much of the feed's history is kept (DEFAULT_KEEP when not given). */
  readonly keepChanges?: KeepChanges;
  /** The downloads of the whole list written beside the pages (DEFAULT_DOWNLOADS when not given; none with `--links files`). */
  readonly downloads?: readonly DownloadFormat[];
  /** `SOURCE_DATE_EPOCH`: the data's date in seconds, for reproducible builds; else the newest source's modification time. */
  readonly sourceDateEpoch?: string | undefined;
  /** Another build holds the output's lock: wait for it (true) or refuse at once. */
  readonly wait?: boolean;
}

/** Where the site goes and what guards it: the output's lock, and the host whose limits it must fit. */
export interface OutputOptions {
  readonly outDir: string;
  readonly wait: boolean;
  readonly target: Target;
  readonly overLimits: "refuse" | "warn";
}

/** The change feed's options; the build writes none when they are null. */
export interface FeedOptions {
  readonly keep: KeepChanges;
  readonly previous?: string;
  /** How an https `previous`'s certificate is checked (`--ca`, `--insecure`); `{}`: the system's roots. */
  readonly trust: Trust;
}

/** A build's options with every default in place, nested by the stage that takes them. */
export interface ResolvedBuildOptions {
  readonly read: ResolvedReadOptions;
  readonly site: SiteOptions;
  readonly output: OutputOptions;
  /** The downloads written (none on a site of plain files). */
  readonly downloads: readonly DownloadFormat[];
  readonly feed: FeedOptions | null;
  readonly cacheDir: string | null;
  readonly sourceDateEpoch: string | undefined;
}

/** The preview's origin: the links' origin when the caller names none. */
export const DEFAULT_BASE_URL = "http://localhost:8080";

export const DEFAULT_OPTIONS = {
  dataDir: "data",
  outDir: "dist",
  limits: [20],
  forms: ["plain", "api"],
  maxLimit: 1000,
  cacheControl: "public, max-age=300",
  strict: false,
  quiet: false,
  cacheDir: "node_modules/.cache/subjekti",
} as const satisfies BuildOptions;

/** `options` with every default in place. */
export function resolveBuildOptions(options: BuildOptions): ResolvedBuildOptions {
  const links = options.links ?? "query";
  return {
    read: resolveReadOptions({ ...options, dataDir: options.dataDir ?? DEFAULT_OPTIONS.dataDir }),
    site: {
      limits: options.limits ?? DEFAULT_OPTIONS.limits,
      forms: options.forms ?? DEFAULT_OPTIONS.forms,
      maxLimit: options.maxLimit ?? DEFAULT_OPTIONS.maxLimit,
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      cacheControl: options.cacheControl ?? DEFAULT_OPTIONS.cacheControl,
      links,
    },
    output: {
      outDir: options.outDir ?? DEFAULT_OPTIONS.outDir,
      wait: options.wait ?? false,
      target: options.target ?? "none",
      overLimits: options.overLimits ?? "refuse",
    },
    downloads: links === "files" ? [] : (options.downloads ?? DEFAULT_DOWNLOADS),
    feed:
      options.feed === true
        ? {
            keep: options.keepChanges ?? DEFAULT_KEEP,
            ...(options.previous === undefined ? {} : { previous: options.previous }),
            trust: options.previousTrust ?? {},
          }
        : null,
    cacheDir: options.cacheDir === undefined ? DEFAULT_OPTIONS.cacheDir : options.cacheDir,
    sourceDateEpoch: options.sourceDateEpoch,
  };
}

/**
 * The origin the pre-rendered pages' links are written on: in Netlify's production context its
 * main address (`URL`); in a deploy preview or branch deploy that deploy's own address
 * (`DEPLOY_PRIME_URL`), so following `next` there stays on the deploy. Outside Netlify, the preview's.
 */
export function defaultBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const variable = baseUrlVariable(env);
  return variable === undefined ? DEFAULT_BASE_URL : (env[variable] as string);
}

/** The variable of Netlify's that defaultBaseUrl takes the origin from, or none (the preview's): a refusal names it. */
export function baseUrlVariable(env: Readonly<Record<string, string | undefined>>): "URL" | "DEPLOY_PRIME_URL" | undefined {
  if (env["CONTEXT"] !== "production" && env["DEPLOY_PRIME_URL"] !== undefined) return "DEPLOY_PRIME_URL";
  return env["URL"] === undefined ? undefined : "URL";
}
