/**
 * What `subjekti <argv>` prints for a help request, from the sources in this process: main.ts wraps
 * help at 80 columns whatever the terminal, so the text is the same wherever it is taken. Shared by
 * the help snapshot (write-help-text.ts) and the CLI reference (cli-reference.ts).
 */
import { main } from "../src/cli/main.ts";

/** The help text `argv` prints (stdout and stderr in order); throws when it does not exit 0. */
export async function helpOf(argv: readonly string[]): Promise<string> {
  let text = "";
  const write = (chunk: string): void => void (text += chunk);
  const code = await main(argv, { stdout: { write }, stderr: { write }, env: {}, untilStopped: () => new Promise(() => undefined) });
  if (code !== 0) throw new Error(`subjekti ${argv.join(" ")} exited ${code}: ${text}`);
  return text;
}
