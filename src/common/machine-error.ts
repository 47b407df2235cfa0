/**
 * The one line for an error of the machine, not of the data: what failed, on which path, and what
 * to do about it there. The path matters most for a full disk: a build writes its output, its
 * cache and the system's temporary directory, which may be three disks.
 */
import { existsSync, mkdirSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, relative, resolve } from "node:path";

/** The errno codes that mean "this place cannot be written": the build cache goes on without them. */
export const CANNOT_WRITE = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST", "EISDIR", "ENOENT", "EIO"]);

/** Is `error` an operating system error with a code (and so a machine's, not a bug)? */
export function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/** Does `code` mean the disk is full (or the quota used up)? */
export function isFull(code: string | undefined): boolean {
  return code === "ENOSPC" || code === "EDQUOT";
}

/** The reason an errno code gives, in a few words. */
export function reasonOf(code: string | undefined): string {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the disk";
    case "EDQUOT":
      return "the disk quota is used up";
    case "ENOTDIR":
    case "EEXIST":
      return "a file where a directory belongs";
    case "EISDIR":
      return "a directory where a file belongs";
    default:
      return code ?? "an error";
  }
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

/** The line for `error`, or undefined when its code is none the machine's errors this names. */
export function machineErrorLine(error: NodeJS.ErrnoException): string | undefined {
  const where = error.path ?? "";
  const elsewhere = where !== "" && inTemporary(where) ? "set TMPDIR to a directory on another disk" : "pick a directory on another disk";
  switch (error.code) {
    case "EACCES":
    case "EPERM":
      return `cannot ${error.syscall ?? "use"} ${where}: permission denied; check its permissions or pick another directory`;
    case "EROFS":
      return `cannot ${error.syscall ?? "write"} ${where}: the file system is read-only; pick a directory on a writable one`;
    case "ENOSPC":
    case "EDQUOT":
      return `no space left on the disk that holds ${where === "" ? "the files being written" : where}${error.code === "EDQUOT" ? " (the disk quota is used up)" : ""}: free space on that disk (df ${where === "" ? "." : dirname(where)}), or ${elsewhere}`;
    case "ENOTDIR":
    case "EEXIST":
    case "EISDIR":
      return `${where}: ${error.code === "EISDIR" ? "a directory where a file belongs" : "a file where a directory belongs"}; remove it or pick another directory`;
    case "EMFILE":
    case "ENFILE":
      return "too many open files: raise the limit (ulimit -n) and try again";
    case "EIO":
      return `cannot ${error.syscall ?? "use"} ${where}: an input/output error (a failing disk, or a network file system gone): check the disk`;
    default:
      return undefined;
  }
}
