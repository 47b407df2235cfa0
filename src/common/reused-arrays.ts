/**
 * Typed arrays used again from one piece of work to the next (the search stage's ranges of buckets
 * and groups of suffix entries, site/search/), grown when one needs more and never shrunk. On the machines the builds run on, memory newly
 * touched is paid for in the kernel (its pages zeroed as they are first written: about 2 s a GB
 * once a process has touched a few GB), so an array made and let go for each of the forty ranges of
 * five million subjects cost that again and again where one array, made once, costs it once.
 */

/** An array of `length` elements (zeroed, as a new typed array is). */
type Make<A> = (length: number) => A;

/** One typed array, handed out as a view of the length asked for. */
export class Reused<A extends Uint8Array | Int32Array | Uint32Array> {
  readonly #make: Make<A>;
  #array: A;

  constructor(make: Make<A>) {
    this.#make = make;
    this.#array = make(0);
  }

  /**
   * A view of `length` elements, good until the next call: all zeros when `zeroed`, else whatever
   * the views before left there (zeros where it grew: the old elements are not copied).
   */
  view(length: number, zeroed = false): A {
    if (length > this.#array.length) {
      // A quarter more than asked: the next range is seldom much larger, and a growth copies nothing.
      this.#array = this.#make(Math.max(length, Math.ceil(1.25 * this.#array.length)));
      return this.#array.subarray(0, length) as A;
    }
    const view = this.#array.subarray(0, length) as A;
    if (zeroed) view.fill(0);
    return view;
  }
}

export const reusedBytes = (): Reused<Uint8Array> => new Reused((n) => new Uint8Array(n));
export const reusedInt32s = (): Reused<Int32Array> => new Reused((n) => new Int32Array(n));
export const reusedUint32s = (): Reused<Uint32Array> => new Reused((n) => new Uint32Array(n));
