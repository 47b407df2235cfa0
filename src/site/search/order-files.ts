/**
 * The order files of the search (core/search/search-layout.ts): each order field's ranks and
 * permutations, and the founding dates with where each begins. The fields come a subject at a
 * time, in place order (add), and the files are made once all have come (finish).
 */
import { compareText } from "../../core/search/match-record.ts";
import { ORDER_FIELDS, type OrderField } from "../../core/search/read-filters.ts";
import { ORDER_FILE, ORDER_SHARD_KEY } from "../../core/search/search-layout.ts";
import type { ShardPlan } from "../hand-offs.ts";
import { SpilledShard } from "./spilled-shard.ts";

/** The order fields of every subject, in place order, and then their files. */
export class OrderFiles {
  readonly #spill: string;
  readonly #values: Record<OrderField, string[]> = { jedinstvena_oznaka: [], naziv_subjekta: [], institucija_grad: [], datum_postanka: [] };
  readonly #seen = new Map<string, string>();

  /** Order files that wait in the scratch directory `spill` until the site's writer takes them (spilled-shard.ts). */
  constructor(spill: string) {
    this.#spill = spill;
  }

  /** The next subject's order fields. */
  add(code: string, name: string, town: string, date: string): void {
    this.#values.jedinstvena_oznaka.push(code);
    this.#values.naziv_subjekta.push(name);
    // The towns' and dates' few thousand values once each, not a string a subject held to the end of the stage.
    this.#values.institucija_grad.push(this.#interned(town));
    this.#values.datum_postanka.push(this.#interned(date));
  }

  /** The order shard, and each place's position in the order by name (name.asc). */
  finish(): { readonly shard: ShardPlan; readonly namePositions: Uint32Array } {
    const made = orderShard(this.#values, this.#spill);
    // Two million names and codes the sets need no more.
    for (const field of ORDER_FIELDS) this.#values[field].length = 0;
    this.#seen.clear();
    return made;
  }

  #interned(value: string): string {
    const known = this.#seen.get(value);
    if (known !== undefined) return known;
    this.#seen.set(value, value);
    return value;
  }
}

/** Each order field's ranks and permutations, and the founding dates with where each begins. */
function orderShard(
  values: Record<OrderField, string[]>,
  spill: string,
): { readonly shard: ShardPlan; readonly namePositions: Uint32Array } {
  const shard = new SpilledShard(spill, ORDER_SHARD_KEY);
  // Each place's position in name.asc.
  const namePositions = new Uint32Array(values.naziv_subjekta.length);
  for (const field of ORDER_FIELDS) {
    const column = values[field];
    const n = column.length;
    // Dates and digit codes order alike as plain text; names and towns by the collation.
    const compare =
      field === "naziv_subjekta" || field === "institucija_grad" || !column.every((v) => /^[0-9-]*$/.test(v))
        ? compareText
        : (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    const distinct = [...new Set(column)].sort(compare);
    const rankOf = new Map(distinct.map((value, rank) => [value, rank]));
    const ranks = new Uint32Array(n);
    const starts = new Uint32Array(distinct.length + 1);
    for (let p = 0; p < n; p++) {
      const rank = rankOf.get(column[p] as string) as number;
      ranks[p] = rank;
      starts[rank + 1] = (starts[rank + 1] as number) + 1;
    }
    for (let g = 0; g < distinct.length; g++) starts[g + 1] = (starts[g + 1] as number) + (starts[g] as number);
    const asc = new Uint32Array(n);
    const filled = starts.slice(0, distinct.length);
    for (let p = 0; p < n; p++) {
      const rank = ranks[p] as number;
      asc[filled[rank] as number] = p;
      filled[rank] = (filled[rank] as number) + 1;
    }
    // Descending: the groups from the last, each group's places still rising (id breaks ties ascending).
    const desc = new Uint32Array(n);
    let at = 0;
    for (let g = distinct.length - 1; g >= 0; g--) {
      desc.set(asc.subarray(starts[g] as number, starts[g + 1] as number), at);
      at += (starts[g + 1] as number) - (starts[g] as number);
    }
    const name = ORDER_FILE[field];
    if (field === "naziv_subjekta") asc.forEach((place, position) => (namePositions[place] = position));
    const le = (array: Uint32Array): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    shard.add(`${name}.rank`, le(ranks));
    shard.add(`${name}.asc`, le(asc));
    shard.add(`${name}.desc`, le(desc));
    if (field === "datum_postanka") {
      shard.add("date.keys", Buffer.from(distinct.map((d) => `${d}\n`).join("")));
      shard.add("date.starts", le(starts));
    }
  }
  return {
    shard: shard.done(),
    namePositions,
  };
}
