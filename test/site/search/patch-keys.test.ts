/**
 * A key's set patched after an edit (src/site/search/patch-keys.ts changedPlaces): the places it
 * held without those lost and with those gained, rising, as the whole stage would list them (a
 * filter and a sort of every place), whatever places change: the first, the last, none, every one.
 */
import { expect, it } from "vitest";
import { mulberry32 } from "../../../src/common/seeded-random.ts";
import { changedPlaces } from "../../../src/site/search/patch-keys.ts";

/** What the set is, made whole. */
const whole = (held: readonly number[], gained: readonly number[], lost: readonly number[]): number[] =>
  [...held.filter((place) => !lost.includes(place)), ...gained].sort((a, b) => a - b);

it("takes out the places lost and puts in those gained, rising", () => {
  const held = [3, 8, 20, 21, 400];
  const cases: [number[], number[]][] = [
    [[0], []],
    [[401], []],
    [[], [3]],
    [[], [400]],
    [
      [9, 1000, 1],
      [8, 21],
    ],
    [[], held],
    [[22], []],
    [[], []],
  ];
  for (const [gained, lost] of cases) expect([...changedPlaces(Uint32Array.from(held), gained, lost)]).toEqual(whole(held, gained, lost));
  expect([...changedPlaces(new Uint32Array(0), [5, 2], [])]).toEqual([2, 5]);
});

it("equals the whole set for random edits", () => {
  const random = mulberry32(11);
  for (let round = 0; round < 500; round++) {
    const universe = 1 + Math.floor(random() * 200);
    const places = Array.from({ length: universe }, (_, place) => place);
    const held = places.filter(() => random() < 0.3);
    const lost = held.filter(() => random() < 0.1);
    const gained = places.filter((place) => !held.includes(place) && random() < 0.05);
    expect([...changedPlaces(Uint32Array.from(held), gained, lost)]).toEqual(whole(held, gained, lost));
  }
});
