/**
 * The search stage of an edit, patched: when few records changed in place (the same count, so
 * every place is where it was), the previous site's search files are changed where the edit
 * reaches, and every other file is kept, byte for byte what the whole stage (plan-search.ts) would
 * write: the order files of the changed fields (patch-orders.ts), the buckets of the keys and
 * tokens the changed records gained or lost or whose positions by name moved (patch-keys.ts), the
 * suffix files of the tokens whose entries changed (patch-suffixes.ts), each with the whole stage's
 * encoders. Anything the patch does not handle (more than MOST_CHANGED records, a span of more than
 * MOST_SHIFTED subjects moved in the order by name, a set leaving its slot, a token crossing
 * INLINE_ROWS or RANKED_ROWS, a suffix cut moving, a previous site of another version) throws
 * NoPatch, and the whole stage runs instead: falling back is always correct.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ORDER_FIELDS, type OrderField } from "../../core/search/read-filters.ts";
import { bucketCount, ORDER_SHARD_KEY, suffixFileCount } from "../../core/search/search-layout.ts";
import { failAt } from "../../common/pause-point.ts";
import type { ShardPlan } from "../hand-offs.ts";
import type { ChunkFile } from "../read-chunks.ts";
import { addFieldFiles, fieldFileNames } from "./order-files.ts";
import { type ChangedSubject, KeysPatch, subjectKeys, subjectTokens } from "./patch-keys.ts";
import { LITTLE_ENDIAN, patchOrder, readU32s } from "./patch-orders.ts";
import { SuffixPatch } from "./patch-suffixes.ts";
import { type CutFacts, SearchFacts } from "./search-facts.ts";
import { NoPatch } from "./no-patch.ts";
import { changedRecords, PreviousSearch } from "./previous-search.ts";
import { readRecordFields, type RecordFields } from "./record-fields.ts";
import { RecordsByPlace } from "./records-by-place.ts";
import { keepFile, previousShard } from "./patched-shards.ts";
import { SpilledShard } from "./spilled-shard.ts";

/** Changed records at most for a patch: each reads a few files; past this the whole stage costs less. */
export const MOST_CHANGED = 64;
/** Unchanged subjects at most whose position by name moves (their tokens' positions are made again). */
export const MOST_SHIFTED = 2048;

/** Which way the search stage went, counted (a test reads them; no clock involved). */
export const searchPaths = { patched: 0, whole: 0, reason: "" };

/** The new list: its count, its chunks' hashes and files. */
export interface PatchInput {
  readonly outDir: string;
  readonly count: number;
  readonly chunkSize: number;
  readonly hashes: readonly string[];
  readonly fileOf: (chunk: number) => ChunkFile;
  /** The scratch directory the changed shards' files wait in. */
  readonly spill: string;
  /** The previous build's facts of its suffix files (search-facts.ts), trusted when they are the previous site's. */
  readonly factsFile?: string;
  /** Learns the suffix files' cut threshold as the patch leaves them, when it is known. */
  readonly cuts?: CutFacts;
}

/**
 * The search shards of the new list patched from the previous site's, or null when the patch does
 * not apply (its reason in searchPaths.reason): the whole stage runs then.
 */
export function patchedSearch(input: PatchInput): ShardPlan[] | null {
  // The list's chunk hashes for the next edit's facts, whichever way this stage goes.
  if (input.cuts !== undefined) input.cuts.chunks = input.hashes;
  try {
    const shards = patch(input);
    searchPaths.patched++;
    searchPaths.reason = "";
    return shards;
  } catch (error) {
    // A previous file that is not JSON (damaged by hand) is no reason to fail: the whole stage writes it anew.
    if (!(error instanceof NoPatch) && !(error instanceof SyntaxError)) throw error;
    searchPaths.whole++;
    searchPaths.reason = error.message;
    return null;
  }
}

function patch({ outDir, count, chunkSize, hashes, fileOf, spill: scratch, factsFile, cuts }: PatchInput): ShardPlan[] {
  // Its own directory in the scratch one: a patch given up leaves nothing where the whole stage writes.
  const spill = join(scratch, "patch");
  if (count === 0) throw new NoPatch("no subjects");
  const previous = new PreviousSearch(outDir, factsFile === undefined ? undefined : SearchFacts.read(factsFile));
  const changedLines = changedRecords(previous, count, hashes, chunkSize, fileOf, MOST_CHANGED);
  if (changedLines.length === 0) throw new NoPatch("no record changed");
  const records = new RecordsByPlace(chunkSize, fileOf);
  const before = new Map<number, RecordFields>();
  for (const { place, before: line } of changedLines) {
    const fields: RecordFields = { code: "", name: "", razina: "", date: "", status: false, odobreno: false, town: "" };
    readRecordFields(line, 0, line.length, fields);
    before.set(place, fields);
  }
  const places = changedLines.map((line) => line.place);
  mkdirSync(spill, { recursive: true });
  const orders = patchOrders(previous, places, before, records, spill);
  const tokensOfPlace = new Map<number, readonly string[]>();
  const tokensBefore = (place: number): readonly string[] => {
    let tokens = tokensOfPlace.get(place);
    if (tokens === undefined) tokensOfPlace.set(place, (tokens = subjectTokens(before.get(place) ?? records.fields(place))));
    return tokens;
  };
  const changed: ChangedSubject[] = places.map((place) => {
    const old = before.get(place) as RecordFields;
    const now = records.fields(place);
    const [was, is] = [subjectTokens(old), subjectTokens(now)];
    return { place, tokensBefore: was, tokensAfter: is, keysBefore: subjectKeys(old, was), keysAfter: subjectKeys(now, is) };
  });
  const suffixes = new SuffixPatch(previous, count, previous.facts.cutThreshold(previous.dirs, suffixFileCount(count)));
  const keys = new KeysPatch(
    previous,
    {
      count,
      changed,
      shifted: orders.shifted,
      namePositions: orders.namePositions,
      positionsBefore: orders.positionsBefore,
      tokensBefore,
      suffixes,
    },
    bucketCount(count),
  );
  const shards = [...keys.shards(spill), ...suffixes.shards(spill), orders.shard];
  // Where a test makes the patch fail as a bug would, its files in the scratch directory: the build fails, the site untouched.
  failAt("search-patched");
  if (cuts !== undefined) cuts.threshold = suffixes.threshold;
  return shards;
}

/**
 * The order shard after the edit, each place's position by name now, each changed place's before,
 * and the unchanged places whose position moved (those in the window of the order by name that
 * patchOrder moved: outside it every position is as it was).
 */
function patchOrders(
  previous: PreviousSearch,
  places: readonly number[],
  before: ReadonlyMap<number, RecordFields>,
  records: RecordsByPlace,
  spill: string,
): {
  readonly shard: ShardPlan;
  readonly namePositions: Uint32Array;
  readonly positionsBefore: ReadonlyMap<number, number>;
  readonly shifted: number[];
} {
  const read = (name: string): Uint32Array => previous.withFile(ORDER_SHARD_KEY, name, readU32s);
  const valueIn = (fields: RecordFields, field: OrderField): string =>
    field === "naziv_subjekta"
      ? fields.name
      : field === "jedinstvena_oznaka"
        ? fields.code
        : field === "institucija_grad"
          ? fields.town
          : fields.date;
  const changedFields = ORDER_FIELDS.filter((field) =>
    places.some((place) => valueIn(before.get(place) as RecordFields, field) !== valueIn(records.fields(place), field)),
  );
  const nameAsc = read("name.asc");
  const namePositions = inverse(nameAsc);
  const positionsBefore = new Map(places.map((place) => [place, namePositions[place] as number]));
  if (changedFields.length === 0) {
    return { shard: previousShard(previous, ORDER_SHARD_KEY), namePositions, positionsBefore, shifted: [] };
  }
  const shard = new SpilledShard(spill, ORDER_SHARD_KEY);
  let window: readonly [number, number] = [0, 0];
  for (const field of ORDER_FIELDS) {
    if (!changedFields.includes(field)) {
      // name.asc's bytes are at hand (unchanged here) where its digest is not known.
      const nameBytes = LITTLE_ENDIAN ? new Uint8Array(nameAsc.buffer) : undefined;
      for (const name of fieldFileNames(field))
        keepFile(previous, shard, ORDER_SHARD_KEY, name, name === "name.asc" ? nameBytes : undefined);
      continue;
    }
    const [rank, asc] = fieldFileNames(field) as [string, string];
    const oldKeys = field === "datum_postanka" ? readDateKeys(previous) : undefined;
    const valueOf = (place: number): string => valueIn(records.fields(place), field);
    const valueBefore = (place: number): string => valueIn(before.get(place) as RecordFields, field);
    const order = field === "naziv_subjekta" ? nameAsc : read(asc);
    const patched = patchOrder(field, order, read(rank), places, valueOf, valueBefore, oldKeys);
    addFieldFiles(shard, field, patched.ranks, patched.asc, patched.dates);
    if (field === "naziv_subjekta") window = [patched.from, patched.to];
  }
  // The positions by name now: those in the window moved; the unchanged places among them shifted.
  const isChanged = new Set(places);
  const shifted: number[] = [];
  for (let position = window[0]; position < window[1]; position++) {
    const place = nameAsc[position] as number;
    if (namePositions[place] === position) continue;
    namePositions[place] = position;
    if (isChanged.has(place)) continue;
    if (shifted.length === MOST_SHIFTED) throw new NoPatch(`more than ${MOST_SHIFTED} subjects move in the order by name`);
    shifted.push(place);
  }
  return { shard: shard.done(), namePositions, positionsBefore, shifted: shifted.sort((a, b) => a - b) };
}

/** The previous distinct dates (date.keys, a line each). */
function readDateKeys(previous: PreviousSearch): string[] {
  return previous.read(ORDER_SHARD_KEY, "date.keys").toString("utf8").split("\n").slice(0, -1);
}

/** Each place's position in an order. */
function inverse(asc: Uint32Array): Uint32Array {
  const positions = new Uint32Array(asc.length);
  for (let i = 0; i < asc.length; i++) positions[asc[i] as number] = i;
  return positions;
}
