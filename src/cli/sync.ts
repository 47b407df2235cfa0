/** `subjekti sync`: a local NDJSON copy of a site's list, kept in step through its change feed (src/feed/sync-mirror.ts). */
import type { Command } from "commander";
import type { CommandContext } from "./problems-output.ts";

interface SyncFlags {
  readonly json: boolean;
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
    .argument("<file>", "the local copy, such as subjekti.ndjson (its sequence is kept beside it in <file>.sync.json)")
    .option("--json", "print one JSON report instead of the line", false)
    .option("--ca <file>", "trust the certificates in this PEM file (a private CA, or a self-signed certificate) beside the system's")
    .option("--insecure", "do not check the https certificate at all (every step is still verified by its hash)", false)
    .action(async (url: string, file: string, flags: SyncFlags) => {
      const [{ syncMirror }, { readCa }] = await Promise.all([import("../feed/sync-mirror.ts"), import("../common/trusted-fetch.ts")]);
      const ca = flags.ca === undefined ? undefined : await readCa(flags.ca);
      const report = await syncMirror(url, file, { ...(ca === undefined ? {} : { ca }), insecure: flags.insecure });
      if (flags.json) {
        io.stdout.write(`${JSON.stringify(report)}\n`);
        return;
      }
      io.stdout.write(`${tr.text("summary.synced", report)}\n`);
    });
}
