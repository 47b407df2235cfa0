/**
 * The one line for an error of the machine, not of the data: what failed, on which path, and what
 * to do about it there. The path matters most for a full disk: a build writes its output, its
 * cache and the system's temporary directory, which may be three disks.
 */
import { tmpdir } from "node:os";
import { dirname, relative, resolve } from "node:path";

/** The errno codes that mean "this place cannot be written": the build cache goes on without them. */
export const CANNOT_WRITE = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST", "EISDIR", "ENOENT", "EIO"]);

/** Is `error` an operating system error with a code (and so a machine's, not a bug)? */
export function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
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
