/**
 * A search shard whose files go to a scratch directory as they are made, hashed on the way, and are
 * read back one at a time when the site's writer asks for them: the stage holds no file's bytes
 * once made, so its memory does not grow with the files (173 MB of them at a million subjects,
 * ten times that at ten million). The hash of a key lookups' shard is the one every shard has
 * (plan-keys.ts): the code's version, the key, then each file's name and bytes. A search shard's
 * (its key under `search/`) is over each file's name and SHA-256 instead (shardHashByDigests), so
 * that the patch of an edit hashes a file it keeps by the previous build's note of its digest
 * (search-facts.ts), unread: both the whole stage and the patch hash them so.
 *
 * A shard planned in the search thread (search-thread.ts) reaches the main thread as data
 * (SpilledShardData: its key, hash, directory and file names), and is made a plan again there.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { contentHasher } from "../../common/content-hash.ts";
import { VERSION } from "../../core/version.ts";
import type { ShardPlan } from "../hand-offs.ts";

/** A spilled shard as plain data: what crosses from the search thread to the main thread. */
export interface SpilledShardData {
  readonly key: string;
  readonly hash: string;
  /**
   * Its directory, holding every file named in `names` but those kept from `keptDir`: in the
   * scratch directory, or the previous site's for a shard the patch of an edit keeps whole (patched-shards.ts).
   */
  readonly dir: string;
  /** Its files' names, in the order the writer gets them. */
  readonly names: readonly string[];
  /**
   * Those of its files that are the previous site's file of the same name in the shard of the same
   * key, byte for byte (added by addKept: the patch of an edit, patch-search.ts); the writer links
   * that file from `keptDir` without comparing. Absent: no file is known to be.
   */
  readonly kept?: readonly string[];
  /** The directory the `kept` files are in (the previous site's shard); absent: `dir`. */
  readonly keptDir?: string;
}

/** The data behind each plan made here: a plan's functions cannot cross threads, its data can. */
const dataOf = new WeakMap<ShardPlan, SpilledShardData>();

/** A shard's files' names, in its hash's order, and each one's SHA-256 (hex). */
export interface FileDigests {
  readonly names: readonly string[];
  readonly digests: readonly string[];
}

/** The digests of each search shard's files, where known: of every shard made here, and of a previous one as the facts tell them (patched-shards.ts). */
const digestsOf = new WeakMap<ShardPlan, FileDigests>();

/** Whether the shard `key` is hashed over its files' digests (a search shard's) rather than their bytes. */
export function hashedByDigests(key: string): boolean {
  return key.startsWith("search/");
}

/** The SHA-256 (hex) of a file's bytes. */
export function fileDigest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A search shard's hash: the code's version, the key, then each file's name and SHA-256 (hex), each line ended. */
export function shardHashByDigests(key: string, { names, digests }: FileDigests): string {
  const hash = contentHasher();
  for (const part of [VERSION, "\n", key, "\n"]) hash.update(part);
  names.forEach((name, i) => {
    for (const part of [name, "\n", digests[i] as string, "\n"]) hash.update(part);
  });
  return hash.digest();
}

/** The digests of the files of `plan` when known (a shard made here, or registered by withDigests). */
export function fileDigestsOf(plan: ShardPlan): FileDigests | undefined {
  return digestsOf.get(plan);
}

/** `plan`, its files' digests `digests` noted (a previous shard kept whole, as the facts tell them). */
export function withDigests(plan: ShardPlan, digests: FileDigests): ShardPlan {
  digestsOf.set(plan, digests);
  return plan;
}

export class SpilledShard {
  readonly #dir: string;
  readonly #key: string;
  /** Over the files' bytes (a key lookups' shard), or null: over their digests (a search shard's). */
  readonly #hash: ReturnType<typeof contentHasher> | null;
  readonly #names: string[] = [];
  readonly #digests: string[] = [];
  readonly #kept: string[] = [];
  #keptDir: string | undefined;

  /** A shard `key` whose files wait in a directory of its own under `scratch`. */
  constructor(scratch: string, key: string) {
    this.#key = key;
    this.#dir = join(scratch, key.replaceAll("/", "_"));
    mkdirSync(this.#dir, { recursive: true });
    this.#hash = hashedByDigests(key) ? null : contentHasher();
    for (const part of [VERSION, "\n", key, "\n"]) this.#hash?.update(part);
  }

  /** Its next file (in the order the writer gets them). */
  add(name: string, bytes: Uint8Array): void {
    this.addParts(name, [bytes]);
  }

  /**
   * Its next file, as the bytes of `parts` one after another: a file too large to make whole (the
   * parts may share one buffer, each written before the next is asked for). Hashed as add would.
   */
  addParts(name: string, parts: Iterable<Uint8Array>): void {
    const fd = openSync(join(this.#dir, name), "w");
    const file = this.#hash === null ? createHash("sha256") : null;
    try {
      for (const part of [name, "\n"]) this.#hash?.update(part);
      for (const part of parts) {
        for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
        (file ?? this.#hash)?.update(part);
      }
    } finally {
      closeSync(fd);
    }
    this.#names.push(name);
    if (file !== null) this.#digests.push(file.digest("hex"));
  }

  /**
   * Its next file, the file `name` of the directory `dir` as it is (the previous site's shard of
   * the same key, which the patch of an edit leaves alone): neither written nor linked here, but
   * named as kept, so that the writer links it from there, unread (a thousand files a shard
   * changed by one: a link each here cost the edit's search thread 0.1 s at a million subjects,
   * and the writer linked each again). Every kept file of a shard is of the one directory.
   * Hashed from `known`: its SHA-256 (a search shard's, as the previous build noted it), else its
   * bytes when already read, else read here.
   */
  addKept(name: string, dir: string, known: { readonly bytes?: Uint8Array | undefined; readonly digest?: string | undefined } = {}): void {
    if (this.#keptDir !== undefined && this.#keptDir !== dir) throw new Error(`the kept files of ${this.#key} are of two directories`);
    this.#keptDir = dir;
    let bytes = known.bytes;
    if (this.#hash === null) {
      this.#digests.push(known.digest ?? fileDigest((bytes ??= readFileSync(join(dir, name)))));
    } else {
      bytes ??= readFileSync(join(dir, name));
      for (const part of [name, "\n", bytes]) this.#hash.update(part);
    }
    this.#names.push(name);
    this.#kept.push(name);
  }

  /** Where its file `name`, once added (not kept), lies: to be read back. */
  pathOf(name: string): string {
    return join(this.#dir, name);
  }

  /** The shard, once every file is added. */
  done(): ShardPlan {
    const digests = { names: this.#names, digests: this.#digests };
    const hash = this.#hash === null ? shardHashByDigests(this.#key, digests) : this.#hash.digest();
    const data = { key: this.#key, hash, dir: this.#dir, names: this.#names };
    const plan = spilledPlan(this.#keptDir === undefined ? data : { ...data, kept: this.#kept, keptDir: this.#keptDir });
    return this.#hash === null ? withDigests(plan, digests) : plan;
  }
}

/** The plan of a spilled shard from its data: its files read back from its directory one at a time as the writer takes them. */
export function spilledPlan(data: SpilledShardData): ShardPlan {
  const { key, hash, dir, names, kept, keptDir = dir } = data;
  const keptNames = new Set(kept);
  const plan: ShardPlan = {
    key,
    hash,
    size: names.length,
    dir,
    // A kept file is the previous site's, where it is (addKept): the writer links it from there, unread and uncompared.
    ...(keptNames.size === 0 ? {} : { kept: { dir: keptDir, names: keptNames } }),
    name: (i) => names[i] as string,
    *files() {
      for (const name of names) yield { name, bytes: readFileSync(join(keptNames.has(name) ? keptDir : dir, name)) };
    },
  };
  dataOf.set(plan, data);
  return plan;
}

/** The data of a plan made here (SpilledShard.done, spilledPlan); throws for any other plan, whose files would not be on disk. */
export function spilledData(plan: ShardPlan): SpilledShardData {
  const data = dataOf.get(plan);
  if (data === undefined) throw new Error(`the search shard ${plan.key} was not spilled: its files cannot cross from the search thread`);
  return data;
}
