/**
 * The preview's request handler: a request Node parsed, answered by the core's handler
 * (src/core/answer-request.ts), which decides and finishes every answer, or by the static files it
 * leaves to the site directory. What is decided here is Node's alone: the protocol's refusals, the
 * health check, and when to look for a rebuilt manifest.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerRequest, finish } from "../core/answer-request.ts";
import { isHostAllowed } from "../core/allowed-hosts.ts";
import { describeError } from "../core/errors.ts";
import { siteUnavailable } from "../core/route.ts";
import { healthAnswer, isHealthCheck } from "./health-check.ts";
import { readRequest } from "./read-request.ts";
import { protocolProblem } from "./refused-requests.ts";
import type { ServedSite } from "./served-site.ts";
import { serveStatic } from "./static-files.ts";
import { writeAnswer } from "./write-answer.ts";

/** Answers one request; never rejects (a failure is a 503, or a cut connection once headers are sent). */
export async function answerHttp(site: ServedSite, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const problem = protocolProblem(req);
    if (problem !== null) {
      res.shouldKeepAlive = false;
      writeAnswer(res, finish(problem, req.method ?? "GET"));
      return;
    }
    if (isHealthCheck(site, req)) {
      writeAnswer(res, await healthAnswer(site, req.method ?? "GET"));
      return;
    }
    tellRefusedHost(site, req.headers.host);
    // A 304 is decided from the files the manifest names (a tag list, or the answer's bytes): look at it first, so a tag of a replaced build is not confirmed.
    if (site.watch && req.headers["if-none-match"] !== undefined) await site.files.refresh();
    const answer = await answerRequest(readRequest(req, site.forwardedProto), site.files);
    if (answer.kind === "static") await serveStatic(site, answer.url, req, res);
    else writeAnswer(res, answer);
  } catch (error) {
    // Only a broken connection or a bug gets here; the client sees a 503 if nothing was sent yet.
    if (!res.headersSent) writeAnswer(res, finish(siteUnavailable(`The preview failed: ${describeError(error)}`), "GET"));
    else res.destroy();
  }
}

/** Tells the deployer of a Host that ALLOWED_HOSTS refuses (the core answers it Django's 400). */
function tellRefusedHost(site: ServedSite, host: string | undefined): void {
  if (site.allowedHosts === undefined || site.onRefusedHost === undefined || host === undefined) return;
  if (!isHostAllowed(host, site.allowedHosts)) site.onRefusedHost(host, site.allowedHosts);
}
