/** The ports the tests' servers take (hosts.ts's freePort): each worker its own, none the kernel hands to connections. */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort, workerPorts } from "./hosts.ts";

/** A server listening on `port` of 127.0.0.1 until closed. */
function hold(port: number): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done(server));
  });
}

describe("freePort", () => {
  it("gives each worker of a run ports of its own, below the kernel's ephemeral range", () => {
    const ranges = Array.from({ length: 22 }, (_, k) => workerPorts(k + 1));
    const ports = ranges.flatMap(({ first, count }) => Array.from({ length: count }, (_, k) => first + k));
    expect(new Set(ports).size).toBe(ports.length);
    const [ephemeral] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    expect(Math.max(...ports)).toBeLessThan(ephemeral as number);
    expect(Math.min(...ports)).toBeGreaterThanOrEqual(1024);
    expect(workerPorts(23)).toEqual(workerPorts(1));
  });

  it("hands out this worker's ports in turn, each once, skipping one a server already holds", async () => {
    const { first, count } = workerPorts();
    const next = (port: number, step: number): number => first + ((port - first + step) % count);
    const one = await freePort();
    expect(one).toBeGreaterThanOrEqual(first);
    expect(one).toBeLessThan(first + count);
    const held = await hold(next(one, 1));
    try {
      expect(await freePort()).toBe(next(one, 2));
    } finally {
      await new Promise((done) => held.close(done));
    }
  });
});
