/**
 * The build's deploy preflight: between reading the records and writing a file, the site the
 * options make is measured (site-shape.ts) and checked against the target host
 * (deploy-preflight.ts). Over a limit the build stops, with nothing written, or, with
 * `--over-limits warn`, goes on and reports what it went over.
 */
import { SubjektiError } from "../core/subjekti-error.ts";
import type { BuildOptions } from "./build-options.ts";
import { describePreflight, HOST_LIMITS, preflight } from "./deploy-preflight.ts";
import type { RenderedRecords } from "./record-arena.ts";
import { measureFiles, siteShape } from "./site-shape.ts";

/** Checks the site `options` make of `records` against `options.target`: throws when it does not fit, or returns the warning. */
export function preflightBuild(options: BuildOptions, records: RenderedRecords): readonly string[] {
  const target = options.target ?? "none";
  if (target === "none") return [];
  const sizes = measureFiles(records, options.baseUrl);
  const links = options.links ?? "query";
  const result = preflight(HOST_LIMITS[target], { links, limits: options.limits, forms: options.forms, maxLimit: options.maxLimit }, (o) => siteShape(records.count, o, sizes));
  if (result.overruns.length === 0) return [];
  const message = describePreflight(result);
  if (options.overLimits === "warn") return [message];
  throw new SubjektiError("OVER_LIMITS", `${message}; or pass --over-limits warn to build it anyway`);
}
