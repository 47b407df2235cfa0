/**
 * A search shard whose files go to a scratch directory as they are made, hashed on the way, and are
 * read back one at a time when the site's writer asks for them: the stage holds no file's bytes
 * once made, so its memory does not grow with the files (173 MB of them at a million subjects,
 * ten times that at ten million). The hash is the one every shard has (plan-keys.ts): the code's
 * version, the key, then each file's name and bytes.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { contentHasher } from "../../common/content-hash.ts";
import { VERSION } from "../../core/version.ts";
import type { ShardPlan } from "../hand-offs.ts";

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
    writeFileSync(join(this.#dir, name), bytes);
    for (const part of [name, "\n", bytes]) this.#hash.update(part);
    this.#names.push(name);
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

  /** The shard, once every file is added. */
  done(): ShardPlan {
    const dir = this.#dir;
    const names = this.#names;
    return {
      key: this.#key,
      hash: this.#hash.digest(),
      size: names.length,
      name: (i) => names[i] as string,
      *files() {
        for (const name of names) yield { name, bytes: readFileSync(join(dir, name)) };
      },
    };
  }
}
