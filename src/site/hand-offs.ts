/**
 * The typed hand-offs between the site's stages: the chunk stage (chunk-records.ts) yields
 * ChunkItems, the output (SiteOutput: write-site.ts, or write-plain-site.ts) writes them and hands
 * back their hashes, the plan stage (plan-site.ts, docs/plan-docs.ts) turns those into a SitePlan,
 * which the output puts on disk (the search's shards, and the manifest that names them, last: their
 * stage may still run in its thread while the rest is written), reporting what it wrote. A leaf of its own, so no stage imports
 * another to name what it takes.
 */
import type { Download } from "../core/download-files.ts";
import type { Form } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import type { ChunkFile } from "./read-chunks.ts";
import type { SiteChanges } from "./site-changes.ts";
import type { LinkKind } from "./site-shape.ts";

/** A records chunk: its records' rendered bytes, one a line, and their content hash. */
export interface Chunk {
  readonly hash: string;
  /** The bytes (a cached block's are read from the build cache on first use). */
  bytes(): Uint8Array;
  /**
   * A file that holds exactly these bytes, when one does (the build cache's file of a block that is
   * the whole chunk): the chunk file is hard-linked to it, not written again.
   */
  readonly file?: string;
  /** Where each record's line ends (just past its "\n"), when known (a whole block's): its table is made from them (chunk-keys.ts). */
  readonly ends?: Uint32Array;
  /** Called by the writer once it reads the bytes no more (copied, and its table made): their memory may serve a later chunk. */
  readonly done?: () => void;
}

/** What the chunk stage yields: each chunk in id order; "restart" when the ordering stage voided the records so far. */
export type ChunkItem = { readonly kind: "chunk"; readonly chunk: Chunk } | { readonly kind: "restart" };

/** The records, as far as the site's plan needs them: how many, and each chunk's content hash in id order. */
export interface ChunkHashes {
  readonly count: number;
  readonly chunkSize: number;
  readonly hashes: readonly string[];
}

/** A file of a shard: its name and bytes, or the file that holds them already. */
export interface ShardFile {
  readonly name: string;
  /** Its bytes (empty when `from` is given). */
  readonly bytes: Uint8Array;
  /** A file holding exactly its bytes (Chunk.file), linked (copied where a link cannot be made) rather than written. */
  readonly from?: string;
  /** Called by a consumer once it has copied the bytes and reads them no more: their producer may then use their memory again (a page's). */
  readonly done?: () => void;
}

export interface ShardPlan {
  /** The shard's path inside the data root, without its hash (`pages/api/20/0`). */
  readonly key: string;
  /** The content hash in the shard directory's name. */
  readonly hash: string;
  /** How many files it holds. */
  readonly size: number;
  /** The name of its file `index` (in the order `files` gives them). */
  name(index: number): string;
  /** Its files, rendered one at a time as they are taken. */
  files(): Iterable<ShardFile>;
  /**
   * The directory its files are in already, named as `name` names them, when they are (a shard
   * spilled to a scratch directory: search/spilled-shard.ts): the writer links or copies them from
   * there rather than take `files()` through memory.
   */
  readonly dir?: string;
  /**
   * Files the producer knows hold the bytes of the previous site's file of the same name, in
   * `kept.dir` (the previous version's directory: the search patch names the files it keeps
   * there, search/spilled-shard.ts addKept): the writer links them from there (copies where it cannot link) without
   * reading or comparing a byte (a shard with `dir` need not hold them there). Every other file is
   * written, or linked from the previous version after a comparison of its bytes.
   */
  readonly kept?: VouchedFiles;
}

/**
 * A shard's files a producer vouches are unchanged: their names, and the directory they are in
 * already. (Not core/kept-files.ts's KeptFiles, the hosts' files kept in memory.)
 */
export interface VouchedFiles {
  readonly dir: string;
  readonly names: ReadonlySet<string>;
}

export interface SitePlan {
  /** Subjects in the list, and the origin in the links: what every page's head holds. */
  readonly count: number;
  readonly baseUrl: string;
  /** Every records shard, in chunk order (written while the records are read). */
  readonly records: readonly Omit<ShardPlan, "files">[];
  /** The shards planned at once (pages, then the docs and the key lookups): those of pages in the order of their first record. */
  readonly shards: readonly ShardPlan[];
  /**
   * The rest of the plan, asked for once `shards` are written: the shards of a stage that may still
   * run (the search's, in its thread), and the manifest, which names their hashes with the others'.
   * Asked twice, the same promise; rejects with that stage's failure.
   */
  rest(): Promise<PlanRest>;
}

/** What a plan holds that waits on a stage still running: its shards, and the manifest that names every shard. */
export interface PlanRest {
  readonly shards: readonly ShardPlan[];
  readonly manifest: Manifest;
}

/** What the site's pages are made of: the plan stage's and the write stage's slice of the build's options. */
/** What the description is published with: the downloads and the data's date. */
export interface Publication {
  readonly downloads: readonly Download[];
  readonly published: Date;
}

export interface SiteOptions {
  /** Page sizes pre-rendered as files. */
  readonly limits: readonly number[];
  /** Forms of `format` pre-rendered as files. */
  readonly forms: readonly Form[];
  readonly maxLimit: number;
  /** The public origin written into links. */
  readonly baseUrl: string;
  readonly cacheControl: string;
  /** How pages link: DRF's query URLs, or the page files' paths for hosts that cannot route (write-plain-site.ts). */
  readonly links: LinkKind;
}

/** What the write stage did. */
export interface WriteReport {
  /** Files the site holds. */
  readonly files: number;
  /** Files whose bytes this build wrote. */
  readonly written: number;
  /** Files already holding the right bytes (left alone or hard-linked). */
  readonly unchanged: number;
  /** Files of the previous site that the new one no longer has. */
  readonly removed: number;
  readonly bytesWritten: number;
  readonly bytesRemoved: number;
  /** The files whose bytes this build wrote, as `<shard key>/<name>` (no hash), in no particular order; made when asked. */
  readonly changed: readonly string[];
}

/** Progress of the write: files settled of the total. */
export type WriteProgress = (done: number, total: number) => void;

/** What the records stage hands on: each chunk's hash in id order, and what the chunks' source returned (the read's summary). */
export interface WrittenRecords<R> {
  readonly hashes: readonly string[];
  readonly read: R;
}

/** What the write stage puts on disk: the pages of `count` records, and for a routed site its plan (a site of plain files cuts its own pages). */
export interface PagesToWrite {
  readonly count: number;
  readonly plan: SitePlan | null;
  /** Renames that switch with the site (the downloads' stable names): synchronous, run right after the switch's own. */
  readonly switchAlong?: () => void;
  /**
   * Work of the build that needs nothing the plan's rest holds (the crawl files): started once the
   * shards at hand are written, while the rest is awaited (the search thread's answer, for which
   * this thread would otherwise wait idle), and awaited before the switch.
   */
  readonly meanwhile?: () => Promise<void>;
}

/** What the write stage did, and the public URLs and cache tags whose answers changed (made when asked). */
export interface SiteWritten extends WriteReport {
  readonly changes: SiteChanges;
}

/**
 * Where a build puts its site, whichever kind: the routed site (write-site.ts) or a site of plain
 * files (write-plain-site.ts). The records first, while the sources are still read; then the
 * pages, the switch from the old site to the new, and the sweep of what it no longer holds.
 */
export interface SiteOutput {
  /** Whether the site publishes the downloads and the description beside its pages (a site of plain files holds pages alone). */
  readonly plans: boolean;
  /**
   * Takes the records chunks in id order as they come (a "restart" forgets those taken so far);
   * after the last chunk of a read without errors, the records are in place for the pages to be
   * cut from.
   */
  writeRecords<R>(chunks: AsyncGenerator<ChunkItem, R>): Promise<WrittenRecords<R>>;
  /** The file of chunk `chunk` once writeRecords is done. */
  chunkFile(chunk: number): ChunkFile;
  /** Writes the pages, then switches readers to the new site, then removes what it no longer holds. */
  write(pages: PagesToWrite, onProgress?: WriteProgress): Promise<SiteWritten>;
  /** After any failure: removes what was written of the new site (readers still see the old one). */
  abort(): Promise<void>;
  /** Once the build is done or failed: removes what the output kept for itself meanwhile. */
  close(): Promise<void>;
}
