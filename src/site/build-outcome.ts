/**
 * What a build reports (the last of its stages): the write stage's counts, the read's summary, the
 * downloads, the change feed and the times. A leaf of the build, so the CLI's report names the
 * shape without loading the build.
 */
import type { Download } from "../core/download-files.ts";
import { type Message, msg } from "../common/messages/message.ts";
import type { Problem, ProblemKind } from "../data/problems/problems.ts";
import type { JudgedRead } from "../data/read/read-records.ts";
import { METADATA_FILE } from "../data/sources/find-sources.ts";
import type { FeedReport } from "../feed/write-feed.ts";
import type { SiteWritten, WriteReport } from "./hand-offs.ts";
import type { CrawlReport } from "./docs/write-crawl-files.ts";
import type { DatasetMetadata } from "./docs/dataset-metadata.ts";
import type { SiteChanges } from "./site-changes.ts";

/** What a build did: the write stage's counts, plus the list's size, the time and the warnings. */
export interface BuildReport extends WriteReport {
  /** Subjects in the list. */
  readonly count: number;
  /** Subjects taken from the build cache, not parsed again. */
  readonly reused: number;
  readonly seconds: number;
  /** The first few warnings of each kind. */
  readonly warnings: readonly Problem[];
  /** Every kind of warning with its exact count. */
  readonly kinds: readonly ProblemKind[];
  /** Seconds spent reading and validating the sources (the records written meanwhile), and planning and writing the pages. */
  readonly timings: { readonly read: number; readonly write: number };
  /** The public URLs and cache tags whose answers changed (site-changes.ts). */
  readonly changes: SiteChanges;
  /** What the site goes over of the target host's limits, built anyway (`--over-limits warn`). */
  readonly overLimits: readonly Message[];
  /** What the published description lacks (no licence declared), as warnings. */
  readonly notes: readonly Message[];
  /** The downloads written (download-files.ts). */
  readonly downloads: readonly Download[];
  /** What the change feed did (none with `--no-feed`). */
  readonly feed?: FeedReport;
  /** The warnings accepted in the data directory's known-problems.json, counted, not listed in `warnings`. */
  readonly known?: JudgedRead["known"];
  /** Why the build cache could not be used or written, when it could not (the build went on without it). */
  readonly cacheWarning?: Message;
  /** That the search thread ran out of its heap and the stage ran again on the main thread (the site is whole; the build took longer). */
  readonly searchWarning?: Message;
}

/** What reading the records into chunks found: the read's summary and what the site goes over of the target's limits. */
export type ReadChunks = JudgedRead & { readonly overLimits: readonly Message[] };

/** What the build did besides the read and the write: what it published beside the pages, and the feed. */
export interface Published {
  /** The dataset's description (datapackage.json), for what it lacks. */
  readonly metadata: DatasetMetadata;
  readonly downloads: readonly Download[];
  readonly feed: FeedReport | undefined;
  /** The files for crawlers written beside the site (none on a site of plain files). */
  readonly crawled: CrawlReport | undefined;
  readonly cacheWarning: Message | undefined;
  readonly searchWarning: Message | undefined;
}

/** The build's report from what each stage handed on; the times are performance.now()'s. */
export function reportBuild(
  run: { readonly started: number; readonly readDone: number; readonly ended: number },
  records: ReadChunks,
  written: SiteWritten,
  published: Published,
): BuildReport {
  const { count, reused, warnings, kinds, overLimits, known } = records;
  const { metadata, downloads, feed, cacheWarning, searchWarning } = published;
  // sitemap.xml, robots.txt and 404.html, written beside the site's own files (docs/write-crawl-files.ts).
  const crawled = published.crawled ?? { files: 0, written: 0, unchanged: 0, bytesWritten: 0 };
  // What the description of the data lacks, as warnings for the maintainer.
  const notes = metadata.licenses.length > 0 ? [] : [msg("warning.no-licence", { file: METADATA_FILE })];
  return {
    count,
    reused,
    warnings,
    kinds,
    overLimits,
    notes,
    downloads,
    ...(cacheWarning === undefined ? {} : { cacheWarning }),
    ...(searchWarning === undefined ? {} : { searchWarning }),
    ...(known === undefined ? {} : { known }),
    ...(feed === undefined ? {} : { feed }),
    files: written.files + crawled.files,
    written: written.written + crawled.written,
    unchanged: written.unchanged + crawled.unchanged,
    removed: written.removed,
    bytesWritten: written.bytesWritten + crawled.bytesWritten,
    bytesRemoved: written.bytesRemoved,
    timings: { read: (run.readDone - run.started) / 1000, write: (run.ended - run.readDone) / 1000 },
    seconds: (run.ended - run.started) / 1000,
    get changed() {
      return written.changed;
    },
    get changes() {
      return written.changes;
    },
  };
}
