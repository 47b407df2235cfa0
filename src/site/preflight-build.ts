/**
 * The build's deploy preflight: once the records are read (their chunks not yet in the site) and
 * before a page is written, the site the options make is measured (site-shape.ts) and checked
 * against the target host (deploy-preflight.ts). Over a limit the build stops, with nothing of the
 * site changed, or, with
 * `--over-limits warn`, goes on and reports what it went over.
 */
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { DEFAULT_DOWNLOADS } from "../core/download-files.ts";
import type { BuildOptions } from "./build-options.ts";
import { describePreflight, HOST_LIMITS, preflight } from "./deploy-preflight.ts";
import { measureFiles, type RecordLengths, siteShape } from "./site-shape.ts";

/** Checks the site `options` make of records of `lengths` against `options.target`: throws when it does not fit, or returns the warning. */
export function preflightBuild(options: BuildOptions, lengths: RecordLengths): readonly string[] {
  const target = options.target ?? "none";
  if (target === "none") return [];
  const sizes = measureFiles(lengths, options.baseUrl);
  const links = options.links ?? "query";
  // The downloads are written by routed builds only; a host that limits a file's bytes may refuse them (--downloads none).
  const downloads = links === "query" ? (options.downloads ?? DEFAULT_DOWNLOADS).length : 0;
  const result = preflight(
    HOST_LIMITS[target],
    { links, limits: options.limits, forms: options.forms, maxLimit: options.maxLimit, downloads },
    (o) => siteShape(lengths.count, o, sizes),
  );
  if (result.overruns.length === 0) return [];
  const message = describePreflight(result);
  if (options.overLimits === "warn") return [message];
  throw failure("OVER_LIMITS", msg("error.over-limits", { detail: message }));
}
