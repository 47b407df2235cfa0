/**
 * A whole shard for a writer thread (in a file of its own, so the plain JavaScript thread,
 * shard-writer-thread.mjs, names its shape without importing the pool that sends it): file i is
 * `buffer[ends[i-1] ?? 0, ends[i])` (or the file `names[i]` in `from`), named `names[i]`, written into `tmp` (hard-linked from `old` when that version holds the same bytes), after which
 * `tmp` is renamed to `dir`. Writing in threads with synchronous fs calls keeps the main thread's
 * cost per file near nothing: the callback `fs.writeFile` cost it ~25 µs a file (BENCHMARKS.md).
 */
export interface ShardTask {
  readonly buffer: ArrayBuffer;
  readonly names: readonly string[];
  readonly ends: readonly number[];
  readonly tmp: string;
  /** Null: the caller renames `tmp` (a shard written in parts, or records waiting for the read to succeed). */
  readonly dir: string | null;
  readonly old: string | null;
  /**
   * The directory the files are in already (a shard spilled to the scratch directory:
   * search/spilled-shard.ts), or null. Each is then hard-linked from there (copied where a link
   * cannot be made), and `buffer` and `ends` are empty: a large file never passes through memory.
   */
  readonly from: string | null;
  /**
   * Files (by index) whose bytes are those of the file of the same name in `keptFrom`, as their
   * producer knows (hand-offs.ts, VouchedFiles): linked (or copied) from there with no comparison;
   * their bytes, if any, are not read.
   */
  readonly kept: readonly number[];
  readonly keptFrom: string | null;
  /**
   * For each file, the file that holds its bytes already, or null (empty: none does): a records
   * chunk's bytes in the build cache (hand-offs.ts, ShardFile.from). Its range of `buffer` is
   * empty; it is hard-linked from there (copied where it cannot be), or from `old` when that
   * version's file is the same file or holds the same bytes.
   */
  readonly sources: readonly (string | null)[];
}
