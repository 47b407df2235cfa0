/** A subject for fast-check: its id from `id`, its eight texts from `text`, its two flags any. */
import fc from "fast-check";
import type { Subject } from "../src/core/render-page.ts";

export function anySubject(text: fc.Arbitrary<string>, id: fc.Arbitrary<number>): fc.Arbitrary<Subject> {
  return fc.record({
    id,
    jedinstvena_oznaka: text,
    naziv_subjekta: text,
    oib: text,
    razina: text,
    datum_postanka: text,
    status_subjekta: fc.boolean(),
    odobreno: fc.boolean(),
    institucija_grad: text,
    institucija_email: text,
  });
}
