/** The options of a build, with the defaults the CLI documents. */
import type { DownloadFormat } from "../core/download-files.ts";
import type { KeepChanges } from "../feed/keep-changes.ts";
import type { Form } from "../core/layout.ts";
import type { Target } from "./targets.ts";
import type { LinkKind } from "./site-shape.ts";
import type { Trust } from "../common/trusted-fetch.ts";

export interface BuildOptions {
  readonly dataDir: string;
  readonly outDir: string;
  /** Page sizes pre-rendered as files. */
  readonly limits: readonly number[];
  /** Forms of `format` pre-rendered as files. */
  readonly forms: readonly Form[];
  readonly maxLimit: number;
  /** The public origin written into links. */
  readonly baseUrl: string;
  readonly cacheControl: string;
  /** Warnings become errors. */
  readonly strict: boolean;
  /** No progress bar (the summary line is the caller's to print). */
  readonly quiet: boolean;
  /** Where the build cache is kept (build-cache.ts); null: no cache, every build reads everything. */
  readonly cacheDir: string | null;
  /** Record threads for large JSON arrays (data/read/read-blocks.ts): a number, or "auto". */
  readonly threads?: number | "auto";
  /** The longest a text field may be, in characters (DEFAULT_MAX_FIELD_LENGTH when not given). */
  readonly maxFieldLength?: number;
  /** Follow symbolic links that lead outside the data directory. */
  readonly followOutside?: boolean;
  /** The encoding of CSV sources (a WHATWG label); UTF-8 when not given. */
  readonly encoding?: string;
  /** Keep every problem for the report, not the first few of each kind (`--all-problems`). */
  readonly allProblems?: boolean;
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

/**
 * The origin the pre-rendered pages' links are written on: in Netlify's production context its
 * main address (`URL`); in a deploy preview or branch deploy that deploy's own address
 * (`DEPLOY_PRIME_URL`), so following `next` there stays on the deploy. Outside Netlify, the preview's.
 */
export function defaultBaseUrl(env: Readonly<Record<string, string | undefined>>): string {
  const url = env["CONTEXT"] === "production" ? env["URL"] : (env["DEPLOY_PRIME_URL"] ?? env["URL"]);
  return url ?? "http://localhost:8080";
}

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
} as const satisfies Omit<BuildOptions, "baseUrl" | "cacheDir"> & { cacheDir: string };
