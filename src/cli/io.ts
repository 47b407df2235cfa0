// What every command of the CLI reaches of its process: one module that main.ts and each command file share.
/** What the CLI reaches of its process: injected, so tests run it in-process. */
export interface Io {
  readonly stdout: { readonly isTTY?: boolean; write(text: string): unknown };
  readonly stderr: { readonly isTTY?: boolean; write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Settles when a running preview should stop (the process's SIGINT or SIGTERM, listened for from the call on). */
  untilStopped(): Promise<unknown>;
  /** Calls `handler` on the process's SIGINT or SIGTERM until the returned function is called (absent in-process: no signals). */
  onSignal?(handler: (signal: "SIGINT" | "SIGTERM") => void): () => void;
}

/** The process's own streams, environment and signals. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    untilStopped: () =>
      new Promise((stop) => {
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      }),
    onSignal(handler) {
      const onInt = (): void => handler("SIGINT");
      const onTerm = (): void => handler("SIGTERM");
      process.on("SIGINT", onInt);
      process.on("SIGTERM", onTerm);
      return () => {
        process.off("SIGINT", onInt);
        process.off("SIGTERM", onTerm);
      };
    },
  };
}
