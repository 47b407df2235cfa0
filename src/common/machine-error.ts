/**
 * The one line for an error of the machine, not of the data: what failed, on which path, and what
 * to do about it there. The path matters most for a full disk: a build writes its output, its
 * cache and the system's temporary directory, which may be three disks.
 */
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, relative, resolve } from "node:path";
import { type Message, msg } from "./messages/message.ts";

/** The errno codes that mean "this place cannot be written": the build cache goes on without them. */
export const CANNOT_WRITE = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST", "EISDIR", "ENOENT", "EIO"]);

/** Is `error` an operating system error with a code (and so a machine's, not a bug), and that `code` when one is given? */
export function isErrno(error: unknown, code?: string): error is NodeJS.ErrnoException {
  if (!(error instanceof Error)) return false;
  const its = (error as NodeJS.ErrnoException).code;
  return typeof its === "string" && (code === undefined || its === code);
}

/** Does `code` mean the disk is full (or the quota used up)? */
export function isFull(code: string | undefined): boolean {
  return code === "ENOSPC" || code === "EDQUOT";
}

/**
 * The real error of a recursive mkdir that failed with ENOENT: Node reports ENOENT when a parent
 * cannot be made on a read-only file system (or without permission), which sends the user looking
 * for a missing directory. The first missing directory is made alone, which fails with the real
 * code (EROFS, EACCES); made after all (a race), it is removed again and `error` stands.
 */
export function realMkdirError(path: string, error: unknown): unknown {
  if (!isErrno(error) || error.code !== "ENOENT") return error;
  let missing = resolve(path);
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  try {
    mkdirSync(missing);
  } catch (real) {
    return real;
  }
  rmdirSync(missing);
  return error;
}

/** Is `path` inside the system's temporary directory (where TMPDIR moves the work)? */
function inTemporary(path: string): boolean {
  const rel = relative(tmpdir(), resolve(path));
  return rel !== "" && !rel.startsWith("..");
}

/** The line for `error` (a message, said in the maintainer's language), or undefined when its code is none the machine's errors this names. */
export function machineErrorLine(error: NodeJS.ErrnoException): Message | undefined {
  const where = error.path ?? "";
  switch (error.code) {
    case "EACCES":
    case "EPERM":
      return msg("machine.permission", { syscall: error.syscall ?? "use", where });
    case "EROFS":
      return msg("machine.read-only", { syscall: error.syscall ?? "write", where });
    case "ENOSPC":
    case "EDQUOT":
      return msg("machine.no-space", {
        where,
        quota: error.code === "EDQUOT",
        dir: where === "" ? "." : dirname(where),
        temporary: where !== "" && inTemporary(where),
      });
    case "ENOTDIR":
    case "EEXIST":
    case "EISDIR":
      return msg(error.code === "EISDIR" ? "machine.directory-for-file" : "machine.file-for-directory", { where });
    case "EMFILE":
    case "ENFILE":
      return msg("machine.open-files");
    case "EIO":
      return msg("machine.io", { syscall: error.syscall ?? "use", where });
    default:
      return undefined;
  }
}
