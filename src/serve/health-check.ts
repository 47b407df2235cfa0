/**
 * `subjekti serve`'s health check: answered on any Host (a load balancer cannot guess the public
 * one), 200 with the site's count and hash while the site can answer, 503 when it cannot.
 */
import type { IncomingMessage } from "node:http";
import type { SendAnswer } from "../core/answer-request.ts";
import type { ServedSite } from "./served-site.ts";

/** The API lives under /api/subjekti/ and the published files at their own paths, so nothing else is here. */
export const HEALTH_PATH = "/healthz";

/** Is this the health check, on a site that answers it? */
export function isHealthCheck(site: ServedSite, req: IncomingMessage): boolean {
  return site.health && req.url === HEALTH_PATH && (req.method === "GET" || req.method === "HEAD");
}

/** The health check's answer: the site's count and hash, or 503 with why it cannot answer. */
export async function healthAnswer(site: ServedSite, method: string): Promise<SendAnswer<Buffer>> {
  const state = await site.files.manifest();
  const ok = !("problem" in state);
  const body = Buffer.from(
    `${JSON.stringify(ok ? { status: "ok", subjects: state.manifest.count, site: state.manifest.hash.slice(0, 12) } : { status: "unavailable", problem: state.problem })}\n`,
  );
  const headers: [string, string][] = [
    ["Content-Type", "application/json"],
    ["Cache-Control", "no-store"],
    ["Content-Length", String(body.length)],
  ];
  return { kind: "send", status: ok ? 200 : 503, headers, body: method === "HEAD" ? null : body };
}
