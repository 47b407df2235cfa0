/**
 * One writer at a time per output: a build into one `--out`, an export into one file. Two
 * overlapping runs (cron runs that overlap, two CI jobs on one runner, a watcher building on every
 * save) would otherwise each sweep what the other just wrote.
 *
 * The lock is a file beside the output, `.<name>.lock` (hidden, so that a reader of `--data` never
 * takes it for a source, and outside the output, which is published whole). It is created whole
 * and atomically: written under a temporary name, then hard-linked to the lock's name, which fails
 * when the name exists. It names its process (pid, host, command, start): a lock whose process is
 * gone (on this host) is taken over, with a line saying so; a takeover is itself guarded by a
 * second lock, so that two processes finding the same stale lock do not both take it.
 */
import { readFileSync, rmSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Message, msg } from "./messages/message.ts";
import { failure } from "./messages/translate.ts";
import { cleanUpOnInterrupt } from "./interrupt-cleanup.ts";
import { realMkdirError, isErrno } from "./machine-error.ts";
import { pauseAt } from "./pause-point.ts";
import { isAlive } from "./remove-leftovers.ts";

/** What a lock file says of its holder. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly since: string;
}

export interface LockOptions {
  /** Wait for the holder to finish (`--wait`) instead of refusing. */
  readonly wait: boolean;
  /** The command taking it, as the lock names it for whoever finds it taken ("build", "export"). */
  readonly command: string;
  /** Told once, in one line, when the lock is held and the caller waits, or when a dead process's lock is taken over. */
  readonly notice?: (line: Message) => void;
  /** How often a waiting process looks again. */
  readonly pollMs?: number;
}

/** A lock held by this process. */
export interface OutputLock {
  readonly path: string;
  /** Removes the lock (when it is still this process's). */
  release(): Promise<void>;
}

/** What a run leaves beside its output: removed when its process is dead, or when a signal stops this one. */
export interface Leftovers {
  /** Removes what runs whose process is gone left (synchronous: the same removal a signal's cleanup runs). */
  dead(): void;
  /** Removes what this run made so far, when a signal stops it (interrupt-cleanup.ts). */
  own(): void;
}

/**
 * Runs `run` holding the lock of `target` (the build's and the export's one preamble): the lock
 * taken (see takeOutputLock), what dead runs left removed, and what this run makes registered for
 * removal should a signal stop it; the lock released however `run` ends.
 */
export async function withOutputLock<T>(
  target: string,
  shown: string,
  options: LockOptions,
  leftovers: Leftovers,
  run: () => Promise<T>,
): Promise<T> {
  const lock = await takeOutputLock(target, shown, options);
  const forget = cleanUpOnInterrupt(() => leftovers.own());
  try {
    leftovers.dead();
    // The lock held and nothing written yet (a process test's point: pause-point.ts).
    await pauseAt("output-locked");
    return await run();
  } finally {
    forget();
    await lock.release();
  }
}

/** Link errors that mean "no hard links on this file system": the lock is then created with O_EXCL. */
const NO_LINK = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV"]);

/** The lock file of the output `target`: `.<name>.lock` beside it. */
export function lockPathOf(target: string): string {
  const path = resolve(target);
  return join(dirname(path), `.${basename(path)}.lock`);
}

/**
 * Takes the lock of `target` (shown to the user as `shown`, such as "--out dist"): at once, or,
 * with `wait`, once its holder is done; else a SubjektiError in one line naming the holder.
 */
export async function takeOutputLock(target: string, shown: string, options: LockOptions): Promise<OutputLock> {
  const path = lockPathOf(target);
  const mine: LockHolder = { pid: process.pid, host: hostname(), command: options.command, since: new Date().toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  // The output's parent is made now rather than by the first write: the lock lives there.
  await mkdir(dirname(path), { recursive: true }).catch((error: unknown) =>
    inDirectory(dirname(path))(realMkdirError(dirname(path), error)),
  );
  let told = false;
  const tell = (line: Message): void => {
    if (!told) options.notice?.(line);
    told = true;
  };
  for (;;) {
    if (await createWhole(path, text).catch(inDirectory(dirname(path)))) break;
    const holder = await readHolder(path);
    if (holder === "gone") continue;
    if (holder !== "unreadable" && isStale(holder)) {
      if (await takeOver(path, holder, text)) {
        options.notice?.(msg("lock.took-over", { shown, pid: holder.pid, command: holder.command, since: holder.since }));
        break;
      }
      continue;
    }
    const who = describe(shown, holder, path);
    if (!options.wait) throw failure("LOCKED", msg("error.locked", who));
    tell(msg("lock.waiting", who));
    await sleep(options.pollMs ?? 200);
  }
  const unregister = cleanUpOnInterrupt(() => {
    if (holdsSync(path)) unlinkSync(path);
  });
  return {
    path,
    async release() {
      // Unregistered only once the lock is gone: a signal meanwhile still removes it (the cleanup checks it is ours).
      const holder = await readHolder(path);
      if (typeof holder === "object" && holder.pid === process.pid && holder.host === mine.host) await rm(path, { force: true });
      unregister();
    },
  };
}

/**
 * A lock that cannot be created (a read-only or full disk) is the output's directory's problem: the
 * error names that directory, not the lock's temporary file, which the user never made.
 */
function inDirectory(dir: string): (error: unknown) => never {
  return (error) => {
    if (isErrno(error)) Object.assign(error, { path: dir, syscall: "write into" });
    throw error;
  };
}

/** Who holds the lock, for its message: the process, its host when it is another machine's (whose processes cannot be seen), or none it names. */
function describe(
  shown: string,
  holder: LockHolder | "unreadable",
  path: string,
): { shown: string; path: string; holder?: { pid: number; command: string; since: string; host?: string } } {
  if (holder === "unreadable") return { shown, path };
  const { pid, command, since } = holder;
  return { shown, path, holder: holder.host === hostname() ? { pid, command, since } : { pid, command, since, host: holder.host } };
}

/** Is the lock's process gone? Only a process of this host can be looked at. */
function isStale(holder: LockHolder): boolean {
  return holder.host === hostname() && holder.pid !== process.pid && !isAlive(holder.pid);
}

/** Creates `path` holding `text`, whole, unless it exists (false then). */
async function createWhole(path: string, text: string): Promise<boolean> {
  const temporary = `${path}.tmp-${process.pid}`;
  // A signal while it is written (before the lock is ours, so before withOutputLock registers the run's own) removes it too.
  const forget = cleanUpOnInterrupt(() => rmSync(temporary, { force: true }));
  try {
    await writeFile(temporary, text);
    // Written under its temporary name, not yet linked (a process test's point: pause-point.ts).
    await pauseAt("lock-written");
  } catch (error) {
    forget();
    rmSync(temporary, { force: true });
    throw error;
  }
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    const code = isErrno(error) ? (error.code ?? "") : "";
    if (code === "EEXIST") return false;
    if (!NO_LINK.has(code)) throw error;
    // No hard links here: O_EXCL creates it atomically, though a reader may see it empty for a moment (read as unreadable, then again).
    try {
      await writeFile(path, text, { flag: "wx" });
      return true;
    } catch (excl) {
      if (isErrno(excl, "EEXIST")) return false;
      throw excl;
    }
  } finally {
    // In the same turn as the link: a signal's handler runs between turns, so once the lock is
    // there its temporary is gone (an awaited removal left it to a build stopped in that moment).
    rmSync(temporary, { force: true });
    forget();
  }
}

/** The lock's holder; "gone" when the lock was released meanwhile, "unreadable" when it names no process. */
async function readHolder(path: string): Promise<LockHolder | "gone" | "unreadable"> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return "gone";
    throw error;
  }
  return parseHolder(text);
}

function parseHolder(text: string): LockHolder | "unreadable" {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not a lock this code wrote (or one being created without hard links): named, not taken over.
    return "unreadable";
  }
  if (typeof value !== "object" || value === null) return "unreadable";
  const { pid, host, command, since } = value as Record<string, unknown>;
  if (typeof pid !== "number" || typeof host !== "string" || typeof command !== "string" || typeof since !== "string") return "unreadable";
  return { pid, host, command, since };
}

/** Does the lock at `path` name this process? (For the signal handler: synchronous.) */
function holdsSync(path: string): boolean {
  try {
    const holder = parseHolder(readFileSync(path, "utf8"));
    return typeof holder === "object" && holder.pid === process.pid && holder.host === hostname();
  } catch (error) {
    if (isErrno(error, "ENOENT")) return false;
    throw error;
  }
}

/**
 * Replaces the lock of the dead process `stale` by this one's; false when another process got there
 * first. The takeover is guarded by `<lock>.takeover`, itself taken whole, and the lock is read again
 * under it: a second process finding the same stale lock finds the guard, or a lock no longer stale.
 */
async function takeOver(path: string, stale: LockHolder, text: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  if (!(await createWhole(guard, text))) {
    const holder = await readHolder(guard);
    // A guard left by a process killed in its takeover: removed, and the takeover tried again.
    if (typeof holder === "object" && isStale(holder)) await rm(guard, { force: true });
    else await sleep(20);
    return false;
  }
  // A signal before the takeover is done removes what it made: its new lock's temporary, and the guard (which names this process).
  const temporary = `${path}.tmp-${process.pid}.${Math.random().toString(36).slice(2)}`;
  const forget = cleanUpOnInterrupt(() => {
    rmSync(temporary, { force: true });
    if (holdsSync(guard)) unlinkSync(guard);
  });
  try {
    const now = await readHolder(path);
    if (now !== "gone" && (now === "unreadable" || now.pid !== stale.pid || now.since !== stale.since)) return false;
    // Replaced by a rename, never removed and made again: while the name is free, a taker that never
    // saw the stale lock would create its own, and this takeover's line would be lost.
    try {
      await writeFile(temporary, text);
      // The new lock written, the dead one's not yet replaced (a process test's point: pause-point.ts).
      await pauseAt("lock-takeover");
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return true;
  } finally {
    await rm(guard, { force: true });
    forget();
  }
}
