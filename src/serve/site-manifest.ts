/**
 * The preview's view of a built site's manifest: read at start (a missing or foreign site is
 * refused), then re-read whenever the file on disk changes, so a running preview follows rebuilds
 * (the build replaces the manifest atomically, which gives it a new inode). Without watching
 * (`subjekti serve --no-watch`) it is re-read only when a file it names is missing.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describeError } from "../core/describe-error.ts";
import { MANIFEST_PATH } from "../core/layout.ts";
import { readManifest, type SiteState } from "../core/manifest.ts";
import { failure, msg } from "../common/messages/message.ts";

/** How stale the preview's manifest may be: at most one stat per this many milliseconds. */
const RECHECK_MS = 100;

interface Loaded {
  readonly state: SiteState;
  /** What identifies the file's version on disk (inode, mtime, size). */
  readonly stamp: string;
}

/** Follows `<dir>/_subjekti/manifest.json` as rebuilds replace it. */
export class ManifestWatcher {
  readonly #file: string;
  readonly #watch: boolean;
  #loaded: Loaded;
  #checkedAt: number;
  #checking: Promise<void> | null = null;

  private constructor(file: string, loaded: Loaded, watch: boolean) {
    this.#file = file;
    this.#watch = watch;
    this.#loaded = loaded;
    this.#checkedAt = Date.now();
  }

  /**
   * Reads the site's manifest; throws SubjektiError with a hint when there is no usable site.
   * `watch`: look for a newer one at most every RECHECK_MS (else only when `refresh` is called).
   */
  static async open(dir: string, watch = true): Promise<ManifestWatcher> {
    const file = join(dir, MANIFEST_PATH);
    const dirStat = await stat(dir).catch(() => null);
    if (dirStat === null || !dirStat.isDirectory()) {
      throw failure("NO_SITE", msg("error.no-site-dir", { dir }));
    }
    const loaded = await load(file);
    if ("problem" in loaded.state) {
      throw failure("NO_SITE", msg("error.unusable-site", { dir, problem: loaded.state.problem, again: loaded.stamp !== "" }));
    }
    return new ManifestWatcher(file, loaded, watch);
  }

  /** The current manifest, re-read first when the file may have changed since the last look. */
  async current(): Promise<SiteState> {
    if (this.#watch && Date.now() - this.#checkedAt >= RECHECK_MS) await this.refresh();
    return this.#loaded.state;
  }

  /** Looks at the file now (one stat; a read only when it changed). Concurrent callers share one look. */
  refresh(): Promise<void> {
    this.#checking ??= this.#look().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #look(): Promise<void> {
    this.#checkedAt = Date.now();
    const stamp = await stampOf(this.#file);
    if (stamp !== this.#loaded.stamp) this.#loaded = await load(this.#file);
  }
}

async function stampOf(file: string): Promise<string> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.mtimeNs}:${s.size}`;
  } catch {
    // Gone (between builds, or deleted): an empty stamp, which load() reports as the problem.
    return "";
  }
}

async function load(file: string): Promise<Loaded> {
  const stamp = await stampOf(file);
  if (stamp === "") return { stamp, state: { problem: `${MANIFEST_PATH} is missing` } };
  try {
    return { stamp, state: readManifest(await readFile(file, "utf8")) };
  } catch (error) {
    // Replaced or removed between the stat and the read: the next look reads it again.
    return { stamp: "", state: { problem: `${MANIFEST_PATH} could not be read (${describeError(error)})` } };
  }
}
