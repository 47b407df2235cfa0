/** Bounded concurrency for file work: the build's and the benchmark probe's. */

/** Runs `task` on every item with at most `limit` running at once. */
export async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
