/**
 * A producer that pushes (a reader calling back for each item it finds), turned into an async
 * generator the next stage pulls from: the hand-off between the build's stages. The producer waits
 * on each item until the consumer has taken it and asked for the next, so nothing piles up
 * between them (as with a callback the producer awaits).
 */

/**
 * Runs `produce`, yielding each item it puts; returns what `produce` resolves to. `put` settles
 * true once the item was taken and the next one asked for, or false when the consumer left the
 * loop early: the producer should then stop (whatever it throws after that is not the consumer's
 * concern, and is dropped).
 */
export async function* pulled<T, R>(produce: (put: (item: T) => Promise<boolean>) => Promise<R>): AsyncGenerator<T, R> {
  let offered: { readonly item: T; readonly answer: (go: boolean) => void } | undefined;
  let wake: (() => void) | undefined;
  let ended = false;
  const awaken = (): void => {
    wake?.();
    wake = undefined;
  };
  const put = (item: T): Promise<boolean> =>
    new Promise<boolean>((answer) => {
      offered = { item, answer };
      awaken();
    });
  const producing = produce(put).finally(() => {
    ended = true;
    awaken();
  });
  // Awaited below; until then a failure must not count as unhandled.
  producing.catch(() => undefined);
  let current: typeof offered;
  let finished = false;
  try {
    for (;;) {
      if (offered === undefined && !ended) await new Promise<void>((resolve) => (wake = resolve));
      current = offered;
      offered = undefined;
      if (current === undefined) break;
      yield current.item;
      current.answer(true);
      current = undefined;
    }
    finished = true;
    return await producing;
  } finally {
    if (!finished) {
      current?.answer(false);
      await producing.catch(() => undefined);
    }
  }
}

/** Stops `generator` (runs its `finally`): a stage that leaves its input early, or is done with it. */
export async function leave(generator: AsyncGenerator<unknown, unknown>): Promise<void> {
  await generator.return(undefined);
}

/** Runs `generator` to its end, handing each item to `each` (and waiting for it); returns what the generator returns. If `each` throws, the generator is stopped. */
export async function forEachItem<T, R>(generator: AsyncGenerator<T, R>, each: (item: T) => unknown): Promise<R> {
  try {
    for (let next = await generator.next(); ; next = await generator.next()) {
      if (next.done === true) return next.value;
      await each(next.value);
    }
  } finally {
    await leave(generator);
  }
}
