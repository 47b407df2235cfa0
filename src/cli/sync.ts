/** `subjekti sync`: a local NDJSON copy of a site's list, kept in step through its change feed (src/feed/sync-mirror.ts). */
import type { Command } from "commander";
import { ENGLISH } from "../common/messages/translate.ts";
import { escapeTerminal } from "../common/terminal-text.ts";
import { listNames } from "../feed/change-names.ts";
import { DEFAULT_LIMITS } from "../feed/feed-limits.ts";
import { positiveInt } from "./options.ts";
import type { CommandContext } from "./problems-output.ts";
import { stoppable } from "./stop-on-signal.ts";

interface SyncFlags {
  readonly json: boolean;
  readonly wait: boolean;
  readonly timeout: number;
  readonly ca?: string;
  readonly insecure: boolean;
}

export function addSyncCommand(program: Command, { io, tr }: CommandContext): void {
  program
    .command("sync")
    .description(
      "keep a local NDJSON copy of a site's list in step with its change feed: the snapshot first, then each diff, every step verified by its hash; exit 1 on anything that does not verify",
    )
    .argument("<url>", "the site's origin, such as https://registry.example.hr")
    .argument("<file>", "the local copy, such as subjekti.ndjson (its sequence is kept beside it in .<file>.sync.json)")
    .option("--json", "print one JSON report instead of the line", false)
    .option("--wait", "wait for another sync of the same copy to finish instead of refusing", false)
    .option(
      "--timeout <seconds>",
      "give up, leaving the copy as it was, when the site has not answered in full within this time",
      positiveInt,
      DEFAULT_LIMITS.deadlineMs / 1000,
    )
    .option("--ca <file>", "trust the certificates in this PEM file (a private CA, or a self-signed certificate) beside the system's")
    .option("--insecure", "do not check the https certificate at all (every step is still verified by its hash)", false)
    .action(async (url: string, file: string, flags: SyncFlags) => {
      const [{ syncMirror }, { readCa }] = await Promise.all([import("../feed/sync-mirror.ts"), import("../common/trusted-fetch.ts")]);
      const ca = flags.ca === undefined ? undefined : await readCa(flags.ca);
      const trust = { ...(ca === undefined ? {} : { ca }), insecure: flags.insecure };
      const report = await stoppable(io, tr, "sync", () =>
        syncMirror(url, file, { wait: flags.wait, limits: { ...DEFAULT_LIMITS, deadlineMs: flags.timeout * 1000 }, trust }),
      );
      // --json keeps to the counts; the line names the first few subjects of each kind of change.
      const { names, snapshot, ...counts } = report;
      const lines = flags.json
        ? [JSON.stringify({ ...counts, snapshot: snapshot === null ? null : ENGLISH.say(snapshot) })]
        : [
            tr.text("summary.synced", { ...counts, ...(snapshot === null ? {} : { snapshot }) }),
            ...(["added", "removed", "changed"] as const)
              // A first copy is all added: its names would be the list's first five, no news.
              .filter((kind) => report.from !== null && report[kind] > 0 && names[kind].length > 0)
              .map((kind) =>
                tr.text("summary.synced-names", {
                  kind,
                  names: listNames(names[kind], report[kind], (count) => tr.text("summary.more-names", { count })),
                }),
              ),
          ];
      // The reason a snapshot was taken and the names quote the site's bytes: never raw on a terminal.
      io.stdout.write(lines.map((line) => `${escapeTerminal(line)}\n`).join(""));
    });
}
