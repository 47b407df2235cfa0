/**
 * The hash of a build's inputs (build-fingerprint.ts): their description, then every file's name and
 * bytes (or its absence), each file read whole. Here or in a thread of its own: a build whose
 * sources are not the sizes the last one recorded knows they changed without it, and hashes them
 * beside its read for the next build's record (an edit at a million subjects waited 0.3 s for the
 * hash of its 330 MB source before it read a record). The thread runs this module
 * (threads/module-thread.mjs calls answerTask); it imports nothing of the build.
 */
import { createHash, type Hash } from "node:crypto";
import { open } from "node:fs/promises";
import { filePieces } from "../../common/read-into.ts";
import { startWorkerPool } from "../../threads/worker-pool.ts";

/** What is hashed: the description's text and the files in order. */
export interface InputsTask {
  readonly description: string;
  readonly files: readonly string[];
}

/** How many hashes were taken here, and in a thread (for the tests: counted on this side). */
export const inputsHashed = { here: 0, aside: 0 };

/** The hash of `task`'s inputs, here. */
export async function hashInputs({ description, files }: InputsTask): Promise<string> {
  inputsHashed.here++;
  const hash = createHash("sha256").update(description);
  for (const path of files) await hashFile(hash, path);
  return hash.digest("hex");
}

const ENTRY = new URL("../../threads/module-thread.mjs", import.meta.url);
/** The module the thread runs (its .ts source; module-thread.mjs loads the .js when compiled). */
const MODULE = new URL("./hash-inputs.ts", import.meta.url);

/** The hash of `task`'s inputs in a thread of its own; `stop` ends it early (a build that failed meanwhile). */
export function hashInputsInThread(task: InputsTask): { readonly hash: Promise<string>; stop(): Promise<void> } {
  inputsHashed.aside++;
  const pool = startWorkerPool<InputsTask, string>(ENTRY, 1, 1, { module: MODULE.href });
  const hash = pool.run(task).finally(() => pool.close());
  // Awaited once the build has finished: a build failing before then must not see this as unhandled.
  hash.catch(() => undefined);
  return { hash, stop: () => pool.close() };
}

/** The thread's side (threads/module-thread.mjs calls it). */
export async function answerTask(task: InputsTask): Promise<{ result: string }> {
  return { result: await hashInputs(task) };
}

/** Adds `path`'s name and bytes (or its absence) to `hash`. */
async function hashFile(hash: Hash, path: string): Promise<void> {
  const file = await open(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT") return null;
    throw error;
  });
  hash.update(fileHead(path));
  if (file === null) {
    hash.update(ABSENT);
    return;
  }
  try {
    for await (const piece of filePieces(file)) hash.update(piece);
  } finally {
    await file.close();
  }
}

/** Adds `path`'s name and its bytes, read already (null: absent), to `hash`, framed as hashFile frames a file it reads. */
export function hashFileBytes(hash: Hash, path: string, bytes: Uint8Array | null): void {
  hash.update(fileHead(path));
  hash.update(bytes ?? ABSENT);
}

/** What comes before a file's bytes in a hash: its name, on a line of its own. */
function fileHead(path: string): string {
  return `\nfile ${path}\n`;
}

/** What stands for a file's bytes when it is absent. */
const ABSENT = "absent";
