/**
 * Files a host keeps by path, the most recently used last, up to a budget of their sizes (a CDN
 * instance's tag lists and chunks, cdn-site.ts; the preview's pages and indexes, node-site.ts). A
 * content-named file never changes, so what is kept never goes stale; a missing or unreadable file
 * (null, or a failed read) is not kept, and is asked again next time (a deploy in progress).
 */
export class KeptFiles<T> {
  readonly #entries = new Map<string, { readonly value: Promise<T | null>; size: number | null }>();
  readonly #sizeOf: (value: T) => number;
  readonly #budget: number;
  #used = 0;

  constructor(sizeOf: (value: T) => number, budget: number) {
    this.#sizeOf = sizeOf;
    this.#budget = budget;
  }

  /** The file at `path`, read with `load` unless it is kept. */
  get(path: string, load: () => Promise<T | null>): Promise<T | null> {
    const kept = this.#entries.get(path);
    if (kept !== undefined) {
      this.#entries.delete(path);
      this.#entries.set(path, kept);
      return kept.value;
    }
    const entry: { readonly value: Promise<T | null>; size: number | null } = { value: load(), size: null };
    this.#entries.set(path, entry);
    void entry.value.then(
      (value) => {
        if (this.#entries.get(path) !== entry) return;
        if (value === null) return void this.#entries.delete(path);
        entry.size = this.#sizeOf(value);
        this.#used += entry.size;
        this.#forgetOver(path);
      },
      () => this.#entries.get(path) === entry && this.#entries.delete(path),
    );
    return entry.value;
  }

  /** Forgets the least recently used files read until the sizes kept are within the budget (`newest` last of all). */
  #forgetOver(newest: string): void {
    for (const [path, entry] of this.#entries) {
      if (this.#used <= this.#budget || path === newest) return;
      // Still being read: its size is counted, and it is forgotten if need be, once it is read.
      if (entry.size === null) continue;
      this.#entries.delete(path);
      this.#used -= entry.size;
    }
  }
}
