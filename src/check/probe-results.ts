/**
 * The answers to a check's planned requests, gathered as they settle (in any order) and reported
 * in the plan's order, so two runs of the same check print the same lines.
 */
import type { Difference } from "./compare-answer.ts";
import type { Probe, ProbeKind } from "./plan-probes.ts";

/** One request that did not answer as the built site does. */
export interface Failure {
  readonly kind: ProbeKind;
  readonly method: string;
  readonly url: string;
  readonly differences: readonly Difference[];
}

/** How one planned request was answered: what differs, and the answer's SOURCE_HEADER. */
export interface ProbeResult {
  readonly differences: readonly Difference[];
  readonly source: string | undefined;
  /** The wrong answer is the one the same path answers without its query string. */
  readonly withoutQuery?: boolean;
}

export class ProbeResults {
  readonly #probes: readonly Probe[];
  readonly #origin: string;
  /** The deployment is on the build's base URL, where nginx answers the pre-rendered files itself. */
  readonly #filesAnswer: boolean;
  /** Plan index -> that request's failure. */
  readonly #failed = new Map<number, Failure>();
  // Plan indexes of the requests nginx should answer from a file, and of those that were not.
  readonly #fileExpected: number[] = [];
  readonly #notFromFile = new Set<number>();
  /** Plan indexes of the requests answered as their path without its query string. */
  readonly #withoutQuery: number[] = [];
  /** An answer carried SOURCE_HEADER: the deployment is behind the nginx configuration. */
  #marked = false;
  #answered = 0;

  constructor(probes: readonly Probe[], origin: string, filesAnswer: boolean) {
    this.#probes = probes;
    this.#origin = origin;
    this.#filesAnswer = filesAnswer;
  }

  /** Records the answer to the plan's request `index`; returns how many have been answered. */
  add(index: number, result: ProbeResult): number {
    const probe = this.#probes[index] as Probe;
    if (result.differences.length > 0)
      this.#failed.set(index, { kind: probe.kind, method: probe.method, url: this.#url(index), differences: result.differences });
    if (result.source !== undefined) this.#marked = true;
    if (result.withoutQuery === true) this.#withoutQuery.push(index);
    if (this.#filesAnswer && (probe.kind === "pre-rendered" || probe.kind === "published") && probe.ifNoneMatchExpected !== true) {
      this.#fileExpected.push(index);
      if (result.source !== "file") this.#notFromFile.add(index);
    }
    return ++this.#answered;
  }

  /** The requests that differ, in the plan's order. */
  failures(): Failure[] {
    return [...this.#failed.keys()].sort((a, b) => a - b).map((index) => this.#failed.get(index) as Failure);
  }

  /**
   * Behind the nginx configuration (an answer was marked as sent from a file, or `behindNginx`:
   * the configuration named itself otherwise): the requests a file should have answered, and the
   * URLs of those it did not; else null.
   */
  fromFiles(behindNginx = false): { readonly expected: number; readonly notFromFiles: readonly string[] } | null {
    if (!this.#marked && !behindNginx) return null;
    return {
      expected: this.#fileExpected.length,
      notFromFiles: [...this.#notFromFile].sort((a, b) => a - b).map((index) => this.#url(index)),
    };
  }

  /** The requests answered as if without their query string, with how many of them search, filter or order; null when none was. */
  withoutQuery(): { readonly count: number; readonly searches: number; readonly first: string } | null {
    const indexes = [...this.#withoutQuery].sort((a, b) => a - b);
    const first = indexes.find((index) => (this.#probes[index] as Probe).kind === "search") ?? indexes[0];
    if (first === undefined) return null;
    const searches = indexes.filter((index) => (this.#probes[index] as Probe).kind === "search").length;
    return { count: indexes.length, searches, first: `${(this.#probes[first] as Probe).method} ${this.#url(first)}` };
  }

  #url(index: number): string {
    return `${this.#origin}${(this.#probes[index] as Probe).target}`;
  }
}
