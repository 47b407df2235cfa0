/**
 * The date a build gives its data: `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds
 * convention) when set, else the newest source file's modification time. Never the clock, so two
 * builds of the same data write the same bytes.
 */
import { stat } from "node:fs/promises";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";

export async function dataDate(files: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<Date> {
  const epoch = env["SOURCE_DATE_EPOCH"];
  if (epoch !== undefined && epoch !== "") {
    if (!/^\d{1,12}$/.test(epoch)) throw failure("BAD_SOURCE_DATE_EPOCH", msg("error.source-date-epoch", { epoch }));
    return new Date(Number(epoch) * 1000);
  }
  let newest = 0;
  for (const file of files) newest = Math.max(newest, (await stat(file)).mtimeMs);
  // Whole seconds: file systems keep finer times than a date needs, and copies round them differently.
  return new Date(Math.floor(newest / 1000) * 1000);
}
