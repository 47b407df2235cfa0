/**
 * `subjekti sync`, the change feed's reference client: keeps a local NDJSON copy of the list in
 * step with a site. The first run downloads the snapshot; later runs apply the diffs after the
 * local sequence in order, each verified by hashing its result against the diff's `to_version`, and
 * fall back to the snapshot when a diff is missing, the local copy is older than the oldest diff
 * kept, or anything does not verify. The copy is replaced by rename (never half-applied) and its
 * sequence and version kept beside it (`.<file>.sync.json`, hidden, so a copy kept in a data
 * directory is no source of the build); the copy is hashed again before a diff is applied to it, so
 * a hand-edited file is replaced, not patched. The site is input: read within the bounds of
 * feed-limits.ts (sizes, the snapshot's to the byte, diffs a run applies, an overall deadline),
 * one run at a time per copy (a lock beside it), and a signal leaves no temporary.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile, rename, rm, writeFile } from "node:fs/promises";
import { filePieces } from "../common/read-into.ts";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { SubjektiError } from "../core/errors.ts";
import { type Message, msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { cleanUpOnInterrupt } from "../common/interrupt-cleanup.ts";
import { takeOutputLock } from "../common/output-lock.ts";
import { removeTreeSync } from "../common/remove-leftovers.ts";
import { applyChanges, readDiff, type Tally } from "./apply-diff.ts";
import { type ChangeNames, NameCollector } from "./change-names.ts";
import { diffSnapshots } from "./diff-snapshots.ts";
import { diffName, type FeedState, FeedShapeError, parseState, STATE_PATH } from "./feed-format.ts";
import { DEFAULT_LIMITS, type FeedLimits, MAX_STATE_BYTES, maxDiffBytes } from "./feed-limits.ts";
import { HashedWriter, writeHashed } from "./hashed-writer.ts";
import { LineCursor } from "../common/line-cursor.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";
import { isCertificateCode, type Trust, trustedGet } from "../common/trusted-fetch.ts";
import { BoundedReader, FeedRefusal, FeedUnreachable } from "./read-bounded.ts";

export interface SyncReport {
  readonly url: string;
  /** The local sequence before, null when there was no verified copy. */
  readonly from: number | null;
  readonly to: number;
  readonly version: string;
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  /** Why the snapshot was downloaded (said in the maintainer's language; `--json` gives its English), or null when the diffs were applied (or nothing was to do). */
  readonly snapshot: Message | null;
  /** The first few subjects added, removed and changed, by name (the line says them; --json keeps to the counts). */
  readonly names: ChangeNames;
}

export interface SyncOptions {
  readonly limits?: FeedLimits;
  /** How an https site's certificate is checked (`--ca`, `--insecure`); the system's roots when not given. */
  readonly trust?: Trust;
  /** Wait for another run on the same copy to finish, instead of refusing. */
  readonly wait?: boolean;
}

interface Local {
  readonly url: string;
  readonly sequence: number;
  readonly version: string;
}

/** Where the copy's sequence and version are kept: hidden, so a build reading the directory passes it over. */
export function syncStatePath(file: string): string {
  return join(dirname(file), `.${basename(file)}.sync.json`);
}

export async function syncMirror(site: string, file: string, options: SyncOptions = {}): Promise<SyncReport> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const lock = await takeOutputLock(file, file, { wait: options.wait ?? false, command: "sync" });
  try {
    // The deadline counts from here: a run that waited for the lock has all of it.
    return await syncLocked(site, file, new BoundedReader(limits, trustedGet(options.trust)), limits);
  } catch (error) {
    if (error instanceof FeedRefusal)
      throw failure("SYNC_REFUSED", msg("error.sync-refused", { where: error.where, detail: error.detail }));
    throw error;
  } finally {
    await lock.release();
  }
}

async function syncLocked(site: string, file: string, reader: BoundedReader, limits: FeedLimits): Promise<SyncReport> {
  const stateUrl = new URL(STATE_PATH, site.endsWith("/") ? site : `${site}/`);
  const state = parseStateAt(await text(reader, stateUrl), stateUrl);
  const local = await readLocal(file);
  const from = local?.sequence ?? null;
  const names = new NameCollector();
  const report = (tally: Tally, snapshot: Message | null, named: NameCollector = names): SyncReport => ({
    url: site,
    from,
    to: state.sequence,
    version: state.version,
    ...tally,
    snapshot,
    names: named.names,
  });
  if (local !== null && local.version === state.version) return report({ added: 0, removed: 0, changed: 0 }, null);

  const temp = `${file}.tmp-${process.pid}`;
  const turns = [`${temp}.a`, `${temp}.b`];
  // SIGINT or SIGTERM mid-run: the temporaries go (the copy and its state are only ever renamed into place).
  const unregister = cleanUpOnInterrupt(() => {
    for (const path of [temp, ...turns, `${syncStatePath(file)}.tmp-${process.pid}`]) removeTreeSync(path);
  });
  // What a sync killed before left beside the copy.
  await removeLeftovers(dirname(file), (name) => name.startsWith(`${basename(file)}.`) || name.startsWith(`.${basename(file)}.`));
  try {
    let why: Message;
    if (local === null) why = msg("sync.no-local-copy");
    else if (local.sequence >= state.sequence) why = msg("sync.not-behind", { local: local.sequence, site: state.sequence });
    else if (local.sequence + 1 < state.oldest) why = msg("sync.older-than-kept", { local: local.sequence, oldest: state.oldest });
    else if (state.sequence - local.sequence > limits.maxSteps)
      why = msg("sync.too-far-behind", { local: local.sequence, behind: state.sequence - local.sequence, max: limits.maxSteps });
    else {
      const applied = await applyDiffs(reader, stateUrl, state, { file, local, temp, turns, names });
      if (!("key" in applied)) {
        await commit(file, temp, { url: site, sequence: state.sequence, version: state.version });
        return report(applied, null);
      }
      why = applied;
    }
    // The names are the snapshot's against the copy, not those of diffs given up on.
    const fromSnapshot = new NameCollector();
    const tally = await downloadSnapshot(reader, stateUrl, state, temp, local === null ? null : file, fromSnapshot);
    await commit(file, temp, { url: site, sequence: state.sequence, version: state.version });
    return report(tally, why, fromSnapshot);
  } finally {
    await rm(temp, { force: true });
    unregister();
  }
}

/** Where a catch-up reads and writes: the copy and its state, the temporary, the two turns, and the names it collects. */
interface CatchUp {
  readonly file: string;
  readonly local: Local;
  readonly temp: string;
  readonly turns: readonly string[];
  readonly names: NameCollector;
}

/** The diffs after the local sequence applied in turn into `temp`; the tally, or why they could not be. */
async function applyDiffs(reader: BoundedReader, stateUrl: URL, state: FeedState, catchUp: CatchUp): Promise<Tally | Message> {
  const { file, local, temp, turns, names } = catchUp;
  const tally: Tally = { added: 0, removed: 0, changed: 0 };
  // Two files take turns: each diff reads the last result and writes the other.
  let current = file;
  let version = local.version;
  try {
    for (let sequence = local.sequence + 1; sequence <= state.sequence; sequence++) {
      const next = turns[sequence % 2] as string;
      const applied = await applyDiff(reader, new URL(diffName(sequence), stateUrl), sequence, version, current, next, tally, state, names);
      if (applied.problem !== undefined) return applied.problem;
      current = next;
      version = applied.version;
    }
    if (version !== state.version) return msg("sync.diffs-end", { version: version.slice(0, 16) });
    await rename(current, temp);
    return tally;
  } finally {
    for (const turn of turns) await rm(turn, { force: true });
  }
}

/** One diff applied to `current` into `next`: the version it gave (verified), or why it was not applied. */
async function applyDiff(
  reader: BoundedReader,
  url: URL,
  sequence: number,
  version: string,
  current: string,
  next: string,
  tally: Tally,
  state: FeedState,
  names: NameCollector,
): Promise<{ version: string; problem?: undefined } | { problem: Message }> {
  const response = await get(reader, url);
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return { problem: msg("sync.diff-status", { url: url.href, status: response.status }) };
  }
  // The state's history names what each diff must make: a diff that makes nothing new is no step.
  const entry = state.history.find((e) => e.sequence === sequence);
  let lines: LineCursor | undefined;
  try {
    lines = await LineCursor.open(reader.body(response, url, maxDiffBytes(state.snapshot.bytes)));
    const { head, changes } = await readDiff(lines);
    if (head.sequence !== sequence || head.from_version !== version || head.to_version !== entry?.to_version)
      return { problem: msg("sync.diff-not-applying", { url: url.href, version: version.slice(0, 16) }) };
    const out = new HashedWriter(next);
    try {
      await applyChanges(await LineCursor.open(createReadStream(current)), changes, tally, out, names);
    } catch (error) {
      await out.destroy();
      throw error;
    }
    const written = await out.end();
    if (written !== head.to_version) return { problem: msg("sync.diff-other-version", { url: url.href, written: written.slice(0, 16) }) };
    return { version: written };
  } catch (error) {
    if (error instanceof SubjektiError || error instanceof FeedRefusal) throw error;
    if (error instanceof FeedShapeError) return { problem: msg("sync.diff-unreadable", { url: url.href, detail: error.message }) };
    throw error;
  } finally {
    // What follows the closing line is never read: the body is let go of here.
    await lines?.close();
  }
}

/** The snapshot into `temp`, verified; the tally against the old copy (when there is one). */
async function downloadSnapshot(
  reader: BoundedReader,
  stateUrl: URL,
  state: FeedState,
  temp: string,
  old: string | null,
  names: NameCollector,
): Promise<Tally> {
  const url = new URL(state.snapshot.url, stateUrl);
  const response = await get(reader, url);
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failure("SYNC_UNVERIFIED", msg("error.sync-snapshot-status", { url: url.href, status: response.status }));
  }
  // Its stated size, to the byte: more is refused as it streams, never written past it.
  const written = (await writeHashed(reader.body(response, url, state.snapshot.bytes, true), temp)).sha256;
  if (written !== state.snapshot.sha256 || written !== state.version) {
    throw failure(
      "SYNC_UNVERIFIED",
      msg("error.sync-mismatch", { url: url.href, written: written.slice(0, 16), version: state.version.slice(0, 16) }),
    );
  }
  const tally: Tally = { added: 0, removed: 0, changed: 0 };
  try {
    const before = await LineCursor.open(old === null ? Readable.from([]) : createReadStream(old));
    for await (const change of diffSnapshots(before, await LineCursor.open(createReadStream(temp)))) {
      if (change.op === "delete") {
        tally.removed++;
        names.add("removed", change.id, change.old);
      } else {
        if (change.existed) tally.changed++;
        else tally.added++;
        names.add(change.existed ? "changed" : "added", change.id, change.line);
      }
    }
  } catch (error) {
    // A snapshot that hashes to its version but holds no records (a site that published junk as its list).
    if (error instanceof FeedShapeError) throw new FeedRefusal(url.href, `the snapshot is not the list's NDJSON (${error.message})`);
    throw error;
  }
  return tally;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  const file = await open(path, "r");
  try {
    for await (const piece of filePieces(file)) hash.update(piece);
  } finally {
    await file.close();
  }
  return hash.digest("hex");
}

/** The copy renamed into place, then what it holds beside it: a crash between leaves a copy the next run re-verifies. */
async function commit(file: string, temp: string, local: Local): Promise<void> {
  await rename(temp, file);
  const path = syncStatePath(file);
  await writeFile(`${path}.tmp-${process.pid}`, `${JSON.stringify(local)}\n`);
  await rename(`${path}.tmp-${process.pid}`, path);
  // The name this state had before it was hidden: a build read it as a source.
  await rm(`${file}.sync.json`, { force: true });
}

/** The local copy's sequence and version, when its bytes still hash to that version. */
async function readLocal(file: string): Promise<Local | null> {
  const read = (path: string): Promise<string | null> => readFile(path, "utf8").catch(() => null);
  const text = (await read(syncStatePath(file))) ?? (await read(`${file}.sync.json`));
  if (text === null) return null;
  let local: Local;
  try {
    local = JSON.parse(text) as Local;
  } catch {
    return null;
  }
  if (typeof local !== "object" || local === null || typeof local.version !== "string" || !Number.isSafeInteger(local.sequence))
    return null;
  const actual = await hashFile(file).catch(() => null);
  return actual === local.version ? local : null;
}

async function get(reader: BoundedReader, url: URL): Promise<Response> {
  try {
    return await reader.get(url);
  } catch (error) {
    if (error instanceof FeedUnreachable) {
      const key = isCertificateCode(error.message) ? "error.untrusted-certificate" : "error.sync-unreachable";
      throw failure("SYNC_UNREACHABLE", msg(key, { url: url.href, detail: error.message }));
    }
    throw error;
  }
}

async function text(reader: BoundedReader, url: URL): Promise<string> {
  const response = await get(reader, url);
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw failure("SYNC_NO_FEED", msg("error.sync-no-feed", { url: url.href, status: response.status }));
  }
  return reader.text(response, url, MAX_STATE_BYTES);
}

function parseStateAt(body: string, url: URL): FeedState {
  const state = parseState(body);
  if (typeof state === "string") throw failure("SYNC_BAD_STATE", msg("error.sync-bad-state", { url: url.href, detail: state }));
  return state;
}
