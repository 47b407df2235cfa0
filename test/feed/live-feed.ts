/**
 * The live site the feed's attack tests start from: three sequences of the first 60 sample
 * subjects (the list, a delete, a rename), built with their change feed into `<root>/live` from
 * `<root>/data`; and its feed files served as they are, some paths answered otherwise.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type FeedState, parseState } from "../../src/feed/feed-format.ts";
import { build } from "../site/built-site.ts";
import type { Handler } from "./hostile-site.ts";

type Sample = { id: number; naziv_subjekta: string }[];

export const SAMPLE = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Sample).slice(0, 60);

export interface LiveFeed {
  readonly live: string;
  /** Its state after the third sequence. */
  readonly state: FeedState;
  /** The snapshot of the first sequence. */
  readonly first: Buffer;
}

export async function buildLiveFeed(root: string): Promise<LiveFeed> {
  const live = join(root, "live");
  const data = join(root, "data");
  const stateOf = async (): Promise<FeedState> => parseState(await readFile(join(live, "changes/state.json"), "utf8")) as FeedState;
  await mkdir(data);
  let first = Buffer.alloc(0);
  for (const [i, list] of [
    SAMPLE,
    SAMPLE.slice(1),
    SAMPLE.slice(1).map((s, j) => (j === 3 ? { ...s, naziv_subjekta: "Novo" } : s)),
  ].entries()) {
    await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
    await build(data, live, { feed: true, cacheDir: null, sourceDateEpoch: String(1_700_000_000 + i * 86_400) });
    if (i === 0) first = await readFile(join(live, "changes", (await stateOf()).snapshot.url));
  }
  return { live, state: await stateOf(), first };
}

/** The live site's feed files, with `overrides` answering some paths instead. */
export function liveFeed(live: string, overrides: Record<string, Handler> = {}): (path: string) => Handler | undefined {
  return (path) =>
    overrides[path] ??
    (path.startsWith("/changes/") && existsSync(join(live, path))
      ? (response) => void readFile(join(live, path)).then((b) => response.end(b))
      : undefined);
}
