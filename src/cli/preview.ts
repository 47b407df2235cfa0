/** `subjekti preview`: the built site served locally, routed exactly as the Netlify edge routes it. */
import type { Command } from "commander";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { allowedHostList, DEFAULT_HOST, envPort, port } from "../serve/listen-options.ts";
import type { CommandContext } from "./problems-output.ts";
import type { Watching } from "./rebuild-on-change.ts";

const DEFAULT_PORT = 8080;

interface PreviewFlags {
  readonly dir: string;
  readonly data: string;
  readonly watch: boolean;
  readonly port?: number;
  readonly host?: string;
  readonly allowedHosts?: string[];
}

export function addPreviewCommand(program: Command, { io, listening, problems, tr, apps }: CommandContext): void {
  program
    .command("preview")
    .description("serve dist/ locally, routed exactly as the Netlify edge routes it")
    .option("--dir <dir>", "the built site", DEFAULT_OPTIONS.outDir)
    .option("--port <n>", "the port (default: $PORT, else 8080; 0: any free port)", port)
    .option("--host <host>", "the address to listen on (default: $HOST, else 127.0.0.1)")
    .option(
      "--allowed-hosts <list>",
      "answer only these Host names, any other with a 400, as Django's ALLOWED_HOSTS (default: every host)",
      allowedHostList,
    )
    .option(
      "--watch",
      "rebuild --dir when a file under --data changes (with the options it was built with); a failed rebuild prints its problems and the last good site stays served",
      false,
    )
    .option("--data <dir>", "the source data directory --watch follows", DEFAULT_OPTIONS.dataDir)
    .action(async (flags: PreviewFlags) => {
      const address = { host: flags.host ?? io.env["HOST"] ?? DEFAULT_HOST, port: flags.port ?? envPort(io.env["PORT"], DEFAULT_PORT) };
      listening(address);
      // The build is loaded here and handed to the watcher, which is the loop around it, not a composition of its own.
      // It is loaded before the preview answers, and the watcher starts before a request is read: an edit saved once
      // the preview answers is always seen (loading the build after it left a window where a save went unwatched).
      const [{ startPreview }, rebuild] = await Promise.all([
        import("../serve/preview-server.ts"),
        flags.watch ? Promise.all([import("./rebuild-on-change.ts"), apps.build(), import("./build-report.ts")]) : undefined,
      ]);
      const running = await startPreview({
        dir: flags.dir,
        ...address,
        ...(flags.allowedHosts === undefined ? {} : { allowedHosts: flags.allowedHosts }),
      });
      io.stdout.write(`subjekti preview: ${tr.text("summary.serving", { url: running.url })}\n`);
      let watching: Watching | undefined;
      if (rebuild !== undefined) {
        const [{ rebuildOnChange }, { buildSite }, { summarise, feedLine }] = rebuild;
        watching = rebuildOnChange(flags.data, flags.dir, { io, problems, buildSite, summarise, feedLine, tr });
      }
      await io.untilStopped();
      await watching?.close();
      await running.close();
    });
}
