/**
 * One subject by its key, and the filtered list, on a generated site of 100,000 subjects (a
 * hundred records chunks, an OIB index of a hundred files, OIBs given to several subjects): for
 * random ids, codes and OIBs the answer is the subject in the source, computed here from the
 * source records alone, and a key no subject has gives the 404 or the empty page.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSubject } from "../../scripts/generate-subjects.ts";
import { answerRequest, type SiteHost } from "../../src/core/answer-request.ts";
import type { Subject } from "../../src/core/render-page.ts";
import { BASE, buildSubjectsSite, diskHosts } from "./fixture-site.ts";

const SIZE = 100_000;
/** Every 50th subject takes the OIB of the subject before it; every 5,000th that of the 10 before it. */
const SUBJECTS: readonly Subject[] = (() => {
  const made = Array.from({ length: SIZE }, (_, i) => makeSubject(11, i));
  for (let i = 50; i < SIZE; i += 50) made[i] = { ...(made[i] as Subject), oib: (made[i - 1] as Subject).oib };
  for (let i = 5000; i < SIZE; i += 5000)
    for (let k = 1; k <= 10; k++) made[i - k] = { ...(made[i - k] as Subject), oib: (made[i] as Subject).oib };
  return made;
})();

/** A subject's bytes as DRF renders it, from the source record: JSON in the fields' order, U+2028/9 escaped. */
function expected(subject: Subject): string {
  return JSON.stringify(subject).replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

let remove: () => Promise<void> = async () => undefined;
let site: SiteHost<Uint8Array>;
/** The same site through a host that reads byte ranges: only the records wanted are read. */
let rangeSite: SiteHost<Uint8Array>;

beforeAll(async () => {
  const built = await buildSubjectsSite("subjekti-lookup-", SUBJECTS);
  remove = built.remove;
  ({ site, rangeSite } = diskHosts(built.dir, built.manifest));
}, 120_000);

afterAll(() => remove());

async function getFrom(host: SiteHost<Uint8Array>, target: string): Promise<{ status: number; body: string }> {
  const answer = await answerRequest({ method: "GET", target, scheme: "http", host: "testserver", headers: new Headers() }, host);
  if (answer.kind !== "send") throw new Error("not the API");
  return { status: answer.status, body: answer.body instanceof Uint8Array ? Buffer.from(answer.body).toString("utf8") : "" };
}

const byId = new Map(SUBJECTS.map((s) => [s.id, s]));
const index = fc.integer({ min: 0, max: SIZE - 1 });

describe.each(["its page reader", "byte ranges"] as const)(
  "lookups on a generated site of 100,000 subjects (the host gives %s)",
  (kind) => {
    const get = (target: string): Promise<{ status: number; body: string }> => getFrom(kind === "byte ranges" ? rangeSite : site, target);
    it("by id: the subject of the source", async () => {
      await fc.assert(
        fc.asyncProperty(index, async (i) => {
          const subject = SUBJECTS[i] as Subject;
          expect(await get(`/api/subjekti/${subject.id}/`)).toEqual({ status: 200, body: expected(subject) });
        }),
        { numRuns: 300 },
      );
    });

    it("by an id no subject has (the gaps, past the end): 404", async () => {
      const last = (SUBJECTS.at(-1) as Subject).id;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: last + 1000 }), async (id) => {
          fc.pre(!byId.has(id));
          expect(await get(`/api/subjekti/${id}/`)).toEqual({ status: 404, body: `{"detail":"Not found."}` });
        }),
        { numRuns: 200 },
      );
    });

    it("by code: a page of the one subject; the code's value without its zeros finds none", async () => {
      await fc.assert(
        fc.asyncProperty(index, async (i) => {
          const subject = SUBJECTS[i] as Subject;
          const page = `{"count":1,"next":null,"previous":null,"results":[${expected(subject)}]}`;
          expect(await get(`/api/subjekti/?jedinstvena_oznaka=${subject.jedinstvena_oznaka}`)).toEqual({ status: 200, body: page });
          const unpadded = String(Number(subject.jedinstvena_oznaka));
          if (unpadded !== subject.jedinstvena_oznaka) {
            expect((await get(`/api/subjekti/?jedinstvena_oznaka=${unpadded}`)).body).toBe(
              `{"count":0,"next":null,"previous":null,"results":[]}`,
            );
          }
        }),
        { numRuns: 200 },
      );
    });

    it("by OIB: every subject with it, in id order, paged", async () => {
      await fc.assert(
        fc.asyncProperty(index, fc.integer({ min: 1, max: 4 }), async (i, limit) => {
          const oib = (SUBJECTS[i] as Subject).oib;
          const all = SUBJECTS.filter((s) => s.oib === oib);
          const query = `?limit=${limit}&oib=${oib}`;
          // DRF's links sort the parameters by name.
          const next = all.length > limit ? `"${BASE}/api/subjekti/?limit=${limit}&offset=${limit}&oib=${oib}"` : "null";
          const page = `{"count":${all.length},"next":${next},"previous":null,"results":[${all.slice(0, limit).map(expected).join(",")}]}`;
          expect(await get(`/api/subjekti/${query}`)).toEqual({ status: 200, body: page });
        }),
        { numRuns: 200 },
      );
    });

    it("the shared OIBs are found in full (eleven subjects share each of these)", async () => {
      for (let i = 5000; i < SIZE; i += 5000) {
        const oib = (SUBJECTS[i] as Subject).oib;
        const all = SUBJECTS.filter((s) => s.oib === oib);
        expect(all.length).toBeGreaterThanOrEqual(11);
        const body = JSON.parse((await get(`/api/subjekti/?limit=25&oib=${oib}`)).body) as { count: number; results: { id: number }[] };
        expect(body.count).toBe(all.length);
        expect(body.results.map((r) => r.id)).toEqual(all.map((s) => s.id));
      }
    });

    it("by an OIB no subject has: the empty page", async () => {
      const taken = new Set(SUBJECTS.map((s) => s.oib));
      await fc.assert(
        fc.asyncProperty(fc.stringMatching(/^[0-9]{11}$/), async (oib) => {
          fc.pre(!taken.has(oib));
          expect((await get(`/api/subjekti/?oib=${oib}`)).body).toBe(`{"count":0,"next":null,"previous":null,"results":[]}`);
        }),
        { numRuns: 200 },
      );
    });
  },
);
