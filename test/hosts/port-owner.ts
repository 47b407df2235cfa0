/**
 * Who listens on a loopback port, from Linux's /proc: the table of TCP sockets gives the listening
 * socket's inode, each process's fd directory the processes holding it. A test that starts a server
 * on a port it picked checks that the server answering is the one it started, not a process that
 * took the port between the pick and the bind (a connect alone cannot tell them apart).
 */
import { readdir, readFile, readlink } from "node:fs/promises";

/** The inodes of the sockets listening on 127.0.0.1:`port` or on every address (0.0.0.0). */
async function listeningInodes(port: number): Promise<Set<string>> {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await readFile(table, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is ADDRESS:PORT in hex; st 0A is LISTEN; the inode is the tenth field.
      const [address, localPort] = (fields[1] ?? "").split(":");
      if (localPort === hex && fields[3] === "0A" && /^(0100007F|0+)$/.test(address ?? "")) inodes.add(fields[9] ?? "");
    }
  }
  return inodes;
}

/** The processes (pid and command line) holding a socket that listens on 127.0.0.1:`port`. */
export async function portListeners(port: number): Promise<{ readonly pid: number; readonly command: string }[]> {
  const inodes = await listeningInodes(port);
  if (inodes.size === 0) return [];
  const holders: { pid: number; command: string }[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => "");
      if (!inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? "")) continue;
      const command = (await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).replaceAll("\0", " ").trim();
      holders.push({ pid: Number(entry), command });
      break;
    }
  }
  return holders;
}
