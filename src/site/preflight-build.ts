/**
 * The build's deploy preflight: once the records are read (their chunks not yet in the site) and
 * before a page is written, the site the options make is measured (site-shape.ts) and checked
 * against the target host (deploy-preflight.ts). Over a limit the build stops, with nothing of the
 * site changed, or, with
 * `--over-limits warn`, goes on and reports what it went over.
 */
import { type Message, msg } from "../common/messages/message.ts";
import { leave } from "../common/stage-iterables.ts";
import type { OrderedItem } from "../data/hand-offs.ts";
import type { JudgedRead } from "../data/read/read-records.ts";
import { failure } from "../common/messages/translate.ts";
import type { ResolvedBuildOptions } from "./build-options.ts";
import { describePreflight, HOST_LIMITS, preflight } from "./deploy-preflight.ts";
import type { ReadChunks } from "./build-outcome.ts";
import { measureFiles, RecordLengths, siteShape } from "./site-shape.ts";

/** Checks the site `options` make of records of `lengths` against the target host: throws when it does not fit, or returns the warning. */
export function preflightBuild(
  { site, output, downloads }: Pick<ResolvedBuildOptions, "site" | "output" | "downloads">,
  lengths: RecordLengths,
): readonly Message[] {
  if (output.target === "none") return [];
  const sizes = measureFiles(lengths, site.baseUrl);
  // A host that limits a file's bytes may refuse the downloads (--downloads none); a plain site has none.
  const result = preflight(
    HOST_LIMITS[output.target],
    { links: site.links, limits: site.limits, forms: site.forms, maxLimit: site.maxLimit, downloads: downloads.length },
    (o) => siteShape(lengths.count, o, sizes),
  );
  if (result.overruns.length === 0) return [];
  const message = describePreflight(result);
  if (output.overLimits === "warn") return [message];
  throw failure("OVER_LIMITS", msg("error.over-limits", { detail: message }));
}

/**
 * The records in id order, passed on as they come, each one's length noted for the preflight
 * (again from the first after a restart; only a build for a target keeps them, 8 bytes a record).
 * When the read ends (its warnings judged), the preflight; before anything is published.
 */
export async function* withPreflight(
  ordered: AsyncGenerator<OrderedItem, JudgedRead>,
  options: Pick<ResolvedBuildOptions, "site" | "output" | "downloads">,
): AsyncGenerator<OrderedItem, ReadChunks> {
  let lengths = options.output.target === "none" ? undefined : new RecordLengths();
  try {
    for (let next = await ordered.next(); ; next = await ordered.next()) {
      if (next.done === true) return { ...next.value, overLimits: lengths === undefined ? [] : preflightBuild(options, lengths) };
      const item = next.value;
      if (item.kind === "restart") lengths &&= new RecordLengths();
      else lengths?.add(item.block.ends);
      yield item;
    }
  } finally {
    await leave(ordered);
  }
}
