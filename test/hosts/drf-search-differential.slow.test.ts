/**
 * Searching, filtering and ordering against the real thing: the 5,758-subject sample (data/) built
 * into a temporary site and answered in-process (the edge function over the built files, as the
 * request table's in-process host), beside Django REST Framework on PostgreSQL answering the same
 * records (test/oracle/drf-oracle.py: the contract's view, an ICU hr-HR cluster with unaccent made
 * for the run and removed after it). A few hundred seeded random queries, drawn from the sample's
 * own names and towns (cut words, diacritics dropped, upper and lower case, several terms, filters
 * and orderings combined, limits and offsets, the detail route, HEAD, an indent) must come back
 * byte for byte as DRF answers them: the status, the contract's headers and the body.
 *
 * The sample's order files come from one sorted run; that a merge of many runs makes the same bytes
 * (what a list of millions needs) is tested apart (test/site/search/search-parts.test.ts).
 *
 * The recorded sample goldens (test/core/golden/drf-search-answers.json, `sample`) are replayed
 * over the same site too; they need no Python.
 *
 * Without /usr/bin/python3 with Debian's Django, DRF, django-filter and psycopg2, or without
 * PostgreSQL 15, the live part skips, saying why, unless SUBJEKTI_REQUIRE_PYTHON=1 (CI installs
 * them), where that is a failure.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mulberry32, type Random } from "../../src/common/seeded-random.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { buildSubjectsSite } from "./fixture-site.ts";
import { edgeHost, type Host, stopChild } from "./hosts.ts";
import { DRF_SEARCH_GOLDEN } from "./request-cases.ts";

const REPO = join(import.meta.dirname, "../..");
const SAMPLE = join(REPO, "data/subjekti.json");
const ORACLE = join(REPO, "test/oracle/drf-oracle.py");
const PYTHON = "/usr/bin/python3";
const MAX_LIMIT = 1000;
const QUERIES = 300;
const SEED = 0x5eac4;

const RECORDS = (JSON.parse(readFileSync(SAMPLE, "utf8")) as Subject[]).toSorted((a, b) => a.id - b.id);

/** Why the oracle cannot run here (one line), or null. */
function whyNot(): string | null {
  const check = spawnSync(PYTHON, [ORACLE, "--check"], { encoding: "utf8" });
  if (check.error !== undefined) return `no ${PYTHON} (${check.error.message})`;
  return check.status === 0 ? null : check.stdout.trim() || check.stderr.trim() || `the check exited with ${check.status}`;
}
const REQUIRE = process.env["SUBJEKTI_REQUIRE_PYTHON"] === "1";
const UNAVAILABLE = whyNot();
if (UNAVAILABLE !== null && !REQUIRE) console.warn(`DRF search differential test skipped: ${UNAVAILABLE}`);

interface Answer {
  readonly status: number;
  readonly answerHeaders: Readonly<Record<string, string>>;
  readonly body: string;
  readonly length: number;
}

interface Query {
  /** What the query exercises: `plain` queries (paging, oib, ordering=id) are answered today without a search engine. */
  readonly kind: "plain" | "search" | "filter" | "ordering" | "detail";
  readonly method: "GET" | "HEAD";
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** DRF behind one line a request on stdin, one line an answer on stdout. */
class Oracle {
  private readonly waiting: ((line: string) => void)[] = [];
  private readonly lines: Interface;
  private stderr = "";
  private readonly child: ChildProcess;

  constructor(child: ChildProcess) {
    this.child = child;
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.lines = createInterface({ input: child.stdout! });
    this.lines.on("line", (line) => this.waiting.shift()?.(line));
  }

  static async start(): Promise<Oracle> {
    const child = spawn(PYTHON, [ORACLE, SAMPLE, String(MAX_LIMIT)], { stdio: ["pipe", "pipe", "pipe"] });
    const oracle = new Oracle(child);
    const ready = await Promise.race([
      oracle.next(),
      new Promise<string>((_, fail) => child.once("exit", (code) => fail(new Error(`the oracle exited with ${code}:\n${oracle.stderr}`)))),
    ]);
    expect(JSON.parse(ready)).toHaveProperty("ready");
    return oracle;
  }

  private next(): Promise<string> {
    return new Promise((done) => this.waiting.push(done));
  }

  async ask(query: Query): Promise<Answer> {
    const line = this.next();
    this.child.stdin!.write(`${JSON.stringify({ method: query.method, target: query.target, headers: query.headers })}\n`);
    return JSON.parse(await line) as Answer;
  }

  async stop(): Promise<void> {
    // The end of stdin: the oracle stops and removes its cluster, then exits.
    this.child.stdin!.end();
    const exited = new Promise<void>((done) => this.child.once("exit", () => done()));
    await Promise.race([exited, new Promise((done) => setTimeout(done, 20_000))]);
    await stopChild(this.child);
  }
}

// --- The queries ---------------------------------------------------------------------------

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (random: Random, p: number): boolean => random() < p;

const FOLD: Record<string, string> = { č: "c", ć: "c", đ: "d", š: "s", ž: "z", Č: "C", Ć: "C", Đ: "D", Š: "S", Ž: "Z" };
const dropDiacritics = (text: string): string => text.replace(/[čćđšžČĆĐŠŽ]/g, (c) => FOLD[c] ?? c);

/** A word of a name or a town, cut, maybe without its diacritics, in some case. */
function term(random: Random): string {
  const record = pick(random, RECORDS);
  const source = chance(random, 0.75) ? record.naziv_subjekta : record.institucija_grad;
  const words = source.split(/\s+/).filter((word) => word.length > 0);
  let word = words.length === 0 ? "a" : pick(random, words);
  if (word.length > 3 && chance(random, 0.6)) {
    const length = 2 + Math.floor(random() * (word.length - 2));
    const start = Math.floor(random() * (word.length - length + 1));
    word = word.slice(start, start + length);
  }
  if (chance(random, 0.4)) word = dropDiacritics(word);
  const casing = random();
  if (casing < 0.25) word = word.toUpperCase();
  else if (casing < 0.5) word = word.toLowerCase();
  return word;
}

const SEPARATORS = ["%20", "+", ",", "%2C", "%2C%20", "%C2%A0", "%E3%80%80"];

function search(random: Random): string {
  const terms = Array.from({ length: pick(random, [1, 1, 1, 2, 2, 3]) }, () => encodeURIComponent(term(random)));
  return `search=${terms.join(pick(random, SEPARATORS))}`;
}

const FIELDS = ["id", "jedinstvena_oznaka", "naziv_subjekta", "institucija_grad", "datum_postanka"];

function ordering(random: Random): string {
  const terms = Array.from({ length: pick(random, [1, 1, 2, 2, 3]) }, () =>
    chance(random, 0.1) ? pick(random, ["nepostojece", "razina", "oib"]) : `${chance(random, 0.4) ? "-" : ""}${pick(random, FIELDS)}`,
  );
  return `ordering=${terms.join(",")}`;
}

const date = (random: Random): string => {
  const record = pick(random, RECORDS);
  return chance(random, 0.9) ? record.datum_postanka : pick(random, ["2020-02-30", "x", "10/16/1994", ""]);
};

function filter(random: Random): string {
  const record = pick(random, RECORDS);
  switch (Math.floor(random() * 7)) {
    case 0:
      return `razina=${pick(random, ["lokalna", "nacionalna", "lokalna", "nacionalna", "regionalna", ""])}`;
    case 1:
      return `status_subjekta=${pick(random, ["true", "false", "True", "0", "1", "da", ""])}`;
    case 2:
      return `odobreno=${pick(random, ["true", "false", "FALSE", "0", "1", "x"])}`;
    case 3:
      return `institucija_grad=${encodeURIComponent(chance(random, 0.9) ? record.institucija_grad : dropDiacritics(record.institucija_grad))}`;
    case 4:
      return `datum_postanka__gte=${date(random)}`;
    case 5:
      return `datum_postanka__lte=${date(random)}`;
    default:
      return `datum_postanka=${record.datum_postanka}`;
  }
}

function paging(random: Random): string[] {
  const out: string[] = [];
  if (chance(random, 0.6)) out.push(`limit=${pick(random, [1, 2, 5, 20, 50, 100, 1000, 0, 2000])}`);
  if (chance(random, 0.5)) out.push(`offset=${pick(random, [0, 1, 7, 20, 100, Math.floor(random() * 6000), 10000])}`);
  return out;
}

function query(random: Random): Query {
  const roll = random();
  let kind: Query["kind"];
  let params: string[];
  if (roll < 0.2) {
    kind = "plain";
    const record = pick(random, RECORDS);
    params = [
      pick(random, [
        `oib=${record.oib}`,
        `jedinstvena_oznaka=${record.jedinstvena_oznaka}`,
        "ordering=id",
        "search=",
        "ordering=nepostojece",
        "status_subjekta=x",
        "x=1",
      ]),
      ...paging(random),
    ];
  } else if (roll < 0.6) {
    kind = "search";
    params = [search(random), ...(chance(random, 0.3) ? [ordering(random)] : []), ...(chance(random, 0.2) ? [filter(random)] : [])];
    params.push(...paging(random));
  } else if (roll < 0.8) {
    kind = "filter";
    params = [filter(random), ...(chance(random, 0.3) ? [filter(random)] : []), ...(chance(random, 0.3) ? [ordering(random)] : [])];
    params.push(...paging(random));
  } else if (roll < 0.95) {
    kind = "ordering";
    params = [ordering(random), ...paging(random)];
  } else {
    // One subject, its queryset searched or filtered: itself, a 404 or a 400.
    kind = "detail";
    params = [chance(random, 0.6) ? search(random) : filter(random)];
  }
  for (let i = params.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [params[i], params[j]] = [params[j] as string, params[i] as string];
  }
  const path = kind === "detail" ? `/api/subjekti/${pick(random, RECORDS).id}/` : "/api/subjekti/";
  return {
    kind,
    method: chance(random, 0.05) ? "HEAD" : "GET",
    target: `${path}?${params.join("&")}`,
    headers: chance(random, 0.05) ? { Accept: "application/json; indent=2" } : {},
  };
}

function queries(): Query[] {
  const random = mulberry32(SEED);
  const seen = new Set<string>();
  const out: Query[] = [];
  while (out.length < QUERIES) {
    const q = query(random);
    const key = `${q.method} ${q.target} ${JSON.stringify(q.headers)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out;
}

// --- The comparison ------------------------------------------------------------------------

/** The host's answer to `method target` held to DRF's: the status, DRF's contract headers, the body's bytes, HEAD's length. */
async function expectSame(host: Host, method: string, target: string, drf: Answer, headers: Record<string, string> = {}): Promise<void> {
  const answer = await host.send(method, target, headers);
  const body = answer.body.toString("utf8");
  expect({ status: answer.status, body: around(body, drf.body) }).toEqual({ status: drf.status, body: around(drf.body, drf.body) });
  for (const [name, value] of Object.entries(drf.answerHeaders)) expect(answer.headers[name], name).toBe(value);
  if (method === "HEAD") expect(answer.headers["content-length"], "content-length").toBe(String(drf.length));
}

/** A short view of `text` around where it first differs from `expected` (the whole text when short or equal). */
function around(text: string, expected: string): string {
  if (text.length <= 600 || text === expected) return text.length <= 600 ? text : `${text.length} chars, as expected`;
  let at = 0;
  while (at < text.length && text[at] === expected[at]) at++;
  return `${text.length} chars; from ${at}: ${text.slice(Math.max(0, at - 100), at + 300)}`;
}

let site: Awaited<ReturnType<typeof buildSubjectsSite>> | undefined;
let host: Host | undefined;
let oracle: Oracle | undefined;

const useHost = (): Host => {
  if (host === undefined) throw new Error("the sample site was not built");
  return host;
};

beforeAll(async () => {
  site = await buildSubjectsSite("subjekti-drf-search-", RECORDS);
  host = edgeHost(site.dir);
}, 180_000);

afterAll(async () => {
  await oracle?.stop();
  await site?.remove();
});

describe("the recorded sample goldens (DRF on PostgreSQL), in-process over the sample", () => {
  for (const drf of DRF_SEARCH_GOLDEN.sample) {
    it(`${drf.name}: ${drf.method} ${drf.target}`, async () => {
      await expectSame(useHost(), drf.method, drf.target, drf, drf.headers);
    });
  }
});

describe.skipIf(UNAVAILABLE !== null && !REQUIRE)(`${QUERIES} seeded random queries, in-process against live DRF on PostgreSQL`, () => {
  beforeAll(async () => {
    if (UNAVAILABLE !== null) throw new Error(`SUBJEKTI_REQUIRE_PYTHON=1 but the DRF oracle cannot run: ${UNAVAILABLE}`);
    oracle = await Oracle.start();
  }, 180_000);

  for (const q of queries()) {
    const accept = q.headers["Accept"] === undefined ? "" : ` (Accept: ${q.headers["Accept"]})`;
    it(`${q.kind}: ${q.method} ${q.target}${accept}`, async () => {
      if (oracle === undefined) throw new Error("the oracle did not start");
      await expectSame(useHost(), q.method, q.target, await oracle.ask(q), { ...q.headers });
    });
  }
});
