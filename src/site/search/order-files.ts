/**
 * The order files of the search (core/search/search-layout.ts): each order field's ranks and
 * permutations, and the founding dates with where each begins. The fields come a subject at a
 * time, in place order (add), and the files are made once all have come (finish).
 *
 * Memory does not grow with the list beyond two arrays of 4 bytes a subject, the dates' 2 and a bit
 * a subject (where each group of equal values begins): the names, codes and towns go through an
 * external sort (sorted-runs.ts: a run of them in memory, the rest in the scratch directory; towns
 * are many, a sixth of the subjects), the dates (a few
 * thousand values) are kept once each with a number a subject, and one array of ranks and one of
 * the ascending order serve every field in turn, the descending order written from them a block at
 * a time, and the positions by name are made last in the ranks' array.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { compareOrderValues } from "../../core/search/match-record.ts";
import { ORDER_FIELDS, type OrderField } from "../../core/search/read-filters.ts";
import { GROUP_BITS_FIELDS, ORDER_FILE, ORDER_SHARD_KEY } from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { placesByRank, PRESORT_FROM, RUN_SIZE, RunScratch, SortedRuns } from "./sorted-runs.ts";
import { SpilledShard } from "./spilled-shard.ts";

/** The order fields of every subject, in place order, and then their files. */
export class OrderFiles {
  readonly #spill: string;
  readonly #codes: SortedRuns;
  readonly #names: SortedRuns;
  readonly #towns: SortedRuns;
  readonly #dates: FewValues;
  #count = 0;

  /**
   * Order files that wait in the scratch directory `spill` until the site's writer takes them
   * (spilled-shard.ts); `runSize` names, codes or towns are sorted in memory at a time; `subjects`:
   * how many will come, when known (the dates' numbers are then made that long at once).
   */
  constructor(spill: string, runSize = RUN_SIZE, subjects = 0) {
    this.#spill = spill;
    this.#dates = new FewValues(subjects);
    // One scratch for the three sorts: their runs fill at the same subject and are sorted in turn, and their merges come one after another.
    const scratch = new RunScratch();
    this.#codes = new SortedRuns(join(spill, "order-runs-code"), compareOrderValues, false, runSize, scratch);
    this.#names = new SortedRuns(join(spill, "order-runs-name"), compareOrderValues, PRESORT_FROM, runSize, scratch);
    this.#towns = new SortedRuns(join(spill, "order-runs-town"), compareOrderValues, PRESORT_FROM, runSize, scratch);
  }

  /** The next subject's order fields. */
  add(code: string, name: string, town: string, date: string): void {
    this.#codes.add(code);
    this.#names.add(name);
    this.#towns.add(town);
    this.#dates.add(date);
    this.#count++;
  }

  /** The order shard, and each place's position in the order by name (name.asc). */
  finish(): { readonly shard: ShardPlan; readonly namePositions: Uint32Array } {
    const n = this.#count;
    const shard = new SpilledShard(this.#spill, ORDER_SHARD_KEY);
    // One array of ranks and one of places in ascending order for every field in turn: each is on
    // disk before the next field overwrites it.
    const ranks = new Uint32Array(n);
    const asc = new Uint32Array(n);
    // Where each group of equal values begins in `asc`, marked as the sort gives the groups: the
    // descending order and the group bits read it in order, not the ranks at random (a read a
    // place that missed the cache far more often at five million, 20 MB of ranks, than at one).
    const groups = new Uint8Array(Math.ceil(n / 8));
    for (const field of ORDER_FIELDS) {
      let starts: Uint32Array | undefined;
      groups.fill(0);
      if (field === "datum_postanka") {
        starts = this.#dates.ranks(ranks);
        placesByRank(ranks, starts, asc);
        // Every date held by a subject at least: no group is empty.
        for (let g = 0; g + 1 < starts.length; g++) {
          const start = starts[g] as number;
          groups[start >>> 3] = (groups[start >>> 3] as number) | (1 << (start & 7));
        }
      } else {
        let position = 0;
        let previous = -1;
        (field === "naziv_subjekta" ? this.#names : field === "jedinstvena_oznaka" ? this.#codes : this.#towns).each((place, rank) => {
          if (rank !== previous) {
            previous = rank;
            groups[position >>> 3] = (groups[position >>> 3] as number) | (1 << (position & 7));
          }
          ranks[place] = rank;
          asc[position++] = place;
        });
      }
      addFieldFiles(shard, field, ranks, asc, starts === undefined ? undefined : { keys: this.#dates.sorted, starts }, groups);
    }
    // The positions by name once the fields are done, into the ranks' array: the order by name read
    // back from its file and inverted, where a third array kept through the fields made 12 bytes a
    // subject here, not 8 (20 MB more at five million).
    const namePositions = inverted(shard.pathOf(`${ORDER_FILE.naziv_subjekta}.asc`), ranks);
    return { shard: shard.done(), namePositions };
  }
}

/** Fills `out` with each place's position in the permutation in file `path` (`out.length` places, 4 bytes each, little end), read a block at a time. */
function inverted(path: string, out: Uint32Array): Uint32Array {
  const block = new Uint32Array(DESC_BLOCK);
  const bytes = new Uint8Array(block.buffer);
  const fd = openSync(path, "r");
  try {
    for (let position = 0; position < out.length; ) {
      const take = Math.min(block.length, out.length - position);
      if (readSync(fd, bytes, 0, 4 * take, 4 * position) !== 4 * take) throw new Error(`${path} ends before place ${position + take}`);
      for (let i = 0; i < take; i++) out[block[i] as number] = position + i;
      position += take;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * The files of order field `field` into `shard`: its ranks, its ascending order and its descending
 * one (written from them a block at a time), and for the dates the distinct values and where each
 * begins. The whole stage and the patch of an edit (patch-orders.ts) both write them here; the
 * stage hands `groups` (groupBits's, marked as its sort gave the groups), the patch leaves it out.
 */
export function addFieldFiles(
  shard: SpilledShard,
  field: OrderField,
  ranks: Uint32Array,
  asc: Uint32Array,
  dates?: { readonly keys: readonly string[]; readonly starts: Uint32Array },
  groups = groupBits(asc, ranks),
): void {
  const name = ORDER_FILE[field];
  shard.add(`${name}.rank`, le(ranks));
  shard.add(`${name}.asc`, le(asc));
  shard.addParts(`${name}.desc`, descending(asc, groups));
  if (GROUP_BITS_FIELDS.includes(field)) shard.add(`${name}.groups`, groups);
  if (field === "datum_postanka" && dates !== undefined) {
    shard.add("date.keys", Buffer.from(dates.keys.map((d) => `${d}\n`).join("")));
    shard.add("date.starts", le(dates.starts));
  }
}

/** The names of order field `field`'s files, in the order the shard holds them. */
export function fieldFileNames(field: OrderField): string[] {
  const name = ORDER_FILE[field];
  const files = [`${name}.rank`, `${name}.asc`, `${name}.desc`];
  if (GROUP_BITS_FIELDS.includes(field)) files.push(`${name}.groups`);
  return field === "datum_postanka" ? [...files, "date.keys", "date.starts"] : files;
}

/**
 * Where each group of equal ranks begins in the ascending order `asc`, as a bitmap over its
 * positions (search-layout.ts `<f>.groups`): made from the ranks and the order alone, so the whole
 * stage and the patch of an edit (which hands addFieldFiles its new ranks and order) write the same.
 */
export function groupBits(asc: Uint32Array, ranks: Uint32Array): Uint8Array {
  const bits = new Uint8Array(Math.ceil(asc.length / 8));
  let previous = -1;
  for (let position = 0; position < asc.length; position++) {
    const rank = ranks[asc[position] as number] as number;
    if (rank !== previous) bits[position >>> 3] = (bits[position >>> 3] as number) | (1 << (position & 7));
    previous = rank;
  }
  return bits;
}

/** Slots of FewValues's dates by their digits (64 K: the dates of 179 years, 512 KB). */
const DATE_SLOT_BITS = 16;

/** A date `YYYY-MM-DD` (digits) as the number YYYYMMDD, a different one for each; -1 for any other text. */
export function dateCode(value: string): number {
  if (value.length !== 10 || value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return -1;
  let code = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    code = 10 * code + digit;
  }
  return code;
}

/** A field of few distinct values (the dates): each value once, and a number a subject. */
class FewValues {
  readonly #numbers = new Map<string, number>();
  /** The last date (dateCode) met in each slot and its number; -1 in none. */
  readonly #slotCode = new Int32Array(1 << DATE_SLOT_BITS).fill(-1);
  readonly #slotNumber = new Int32Array(1 << DATE_SLOT_BITS);
  // Two bytes a subject while the values number fewer than 65,536 (dates over 179 years).
  #of: Uint16Array | Uint32Array;
  #count = 0;
  /** The distinct values in order, once ranks has been called. */
  sorted: string[] = [];

  /**
   * Numbers for `expected` subjects at once when known: grown by doubling, they held up to twice
   * the list's (16.8 MB at five million, 10 of them used) and both arrays while the last grew.
   */
  constructor(expected: number) {
    this.#of = new Uint16Array(Math.max(1024, expected));
  }

  add(value: string): void {
    // A date's number by its digits in a slot of DATE_SLOTS first: the Map hashed and probed a
    // fresh string for each subject (0.47 s of a million), a slot holds the same date as the last.
    const code = dateCode(value);
    const slot = code < 0 ? -1 : Math.imul(code, 0x9e3779b1) >>> (32 - DATE_SLOT_BITS);
    let number: number | undefined;
    if (slot >= 0 && this.#slotCode[slot] === code) number = this.#slotNumber[slot] as number;
    else {
      number = this.#numbers.get(value);
      if (number === undefined) this.#numbers.set(value, (number = this.#numbers.size));
      if (slot >= 0) {
        this.#slotCode[slot] = code;
        this.#slotNumber[slot] = number;
      }
    }
    if (this.#count === this.#of.length || (number > 0xffff && this.#of instanceof Uint16Array)) {
      const wide = number > 0xffff || this.#of instanceof Uint32Array;
      const grown = wide ? new Uint32Array(2 * this.#of.length) : new Uint16Array(2 * this.#of.length);
      grown.set(this.#of);
      this.#of = grown;
    }
    this.#of[this.#count++] = number;
  }

  /** Fills `ranks` with each place's rank among the distinct values; returns where each rank begins in the ascending order. */
  ranks(ranks: Uint32Array): Uint32Array {
    const values = [...this.#numbers.keys()];
    this.#numbers.clear();
    const byRank = values.map((_, number) => number).sort((a, b) => compareOrderValues(values[a] as string, values[b] as string));
    const rankOf = new Uint32Array(values.length);
    byRank.forEach((number, rank) => (rankOf[number] = rank));
    this.sorted = byRank.map((number) => values[number] as string);
    const starts = new Uint32Array(values.length + 1);
    for (let p = 0; p < this.#count; p++) {
      const rank = rankOf[this.#of[p] as number] as number;
      ranks[p] = rank;
      starts[rank + 1] = (starts[rank + 1] as number) + 1;
    }
    this.#of = new Uint32Array(0);
    for (let g = 0; g < values.length; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
    return starts;
  }
}

/** Places a block of the descending order holds (256 KiB). */
const DESC_BLOCK = 1 << 16;

/**
 * Descending: the groups of equal rank from the last, each group's places still rising (id breaks
 * ties ascending), as the bytes of blocks of `block` places; `groups` marks where each group begins
 * in `asc` (groupBits). One block is reused: each part is to be used before the next is asked for.
 */
export function* descending(asc: Uint32Array, groups: Uint8Array, block = DESC_BLOCK): Generator<Uint8Array> {
  const out = new Uint32Array(Math.min(block, asc.length));
  let at = 0;
  for (let end = asc.length; end > 0; ) {
    let start = end - 1;
    while (start > 0 && ((groups[start >>> 3] as number) & (1 << (start & 7))) === 0) start--;
    // Place by place: most groups (names, codes) are of one place, where a subarray a group cost
    // more than the copy (a tenth of a second at a million).
    for (let i = start; i < end; i++) {
      out[at++] = asc[i] as number;
      if (at === out.length) {
        yield le(out);
        at = 0;
      }
    }
    end = start;
  }
  if (at > 0) yield le(out.subarray(0, at));
}

function le(array: Uint32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}
