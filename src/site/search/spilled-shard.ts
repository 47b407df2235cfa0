/**
 * A search shard whose files go to a scratch directory as they are made, hashed on the way, and are
 * read back one at a time when the site's writer asks for them: the stage holds no file's bytes
 * once made, so its memory does not grow with the files (173 MB of them at a million subjects,
 * ten times that at ten million). The hash is the one every shard has (plan-keys.ts): the code's
 * version, the key, then each file's name and bytes.
 *
 * A shard planned in the search thread (search-thread.ts) reaches the main thread as data
 * (SpilledShardData: its key, hash, directory and file names), and is made a plan again there.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { contentHasher } from "../../common/content-hash.ts";
import { VERSION } from "../../core/version.ts";
import type { ShardPlan } from "../hand-offs.ts";

/** A spilled shard as plain data: what crosses from the search thread to the main thread. */
export interface SpilledShardData {
  readonly key: string;
  readonly hash: string;
  /** Its directory in the scratch directory, holding every file named in `names`. */
  readonly dir: string;
  /** Its files' names, in the order the writer gets them. */
  readonly names: readonly string[];
}

/** The data behind each plan made here: a plan's functions cannot cross threads, its data can. */
const dataOf = new WeakMap<ShardPlan, SpilledShardData>();

export class SpilledShard {
  readonly #dir: string;
  readonly #key: string;
  readonly #hash = contentHasher();
  readonly #names: string[] = [];

  /** A shard `key` whose files wait in a directory of its own under `scratch`. */
  constructor(scratch: string, key: string) {
    this.#key = key;
    this.#dir = join(scratch, key.replaceAll("/", "_"));
    mkdirSync(this.#dir, { recursive: true });
    for (const part of [VERSION, "\n", key, "\n"]) this.#hash.update(part);
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
    try {
      for (const part of [name, "\n"]) this.#hash.update(part);
      for (const part of parts) {
        for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
        this.#hash.update(part);
      }
    } finally {
      closeSync(fd);
    }
    this.#names.push(name);
  }

  /** Where its file `name`, once added, lies: to be read back. */
  pathOf(name: string): string {
    return join(this.#dir, name);
  }

  /** The shard, once every file is added. */
  done(): ShardPlan {
    return spilledPlan({ key: this.#key, hash: this.#hash.digest(), dir: this.#dir, names: this.#names });
  }
}

/** The plan of a spilled shard from its data: its files read back from its directory one at a time as the writer takes them. */
export function spilledPlan(data: SpilledShardData): ShardPlan {
  const { key, hash, dir, names } = data;
  const plan: ShardPlan = {
    key,
    hash,
    size: names.length,
    dir,
    name: (i) => names[i] as string,
    *files() {
      for (const name of names) yield { name, bytes: readFileSync(join(dir, name)) };
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
