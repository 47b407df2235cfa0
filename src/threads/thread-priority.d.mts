// The types of thread-priority.mjs (plain JavaScript, so that a plain thread entry imports it too).

/** Nice steps a thread yields (a thread at +5 weighs about a third of one at 0 in Linux's scheduler). */
export declare const YIELD_STEP = 5;

/** Lowers the calling thread by `step` nice steps (at most to 19). A hint: where the system refuses it, nothing changes. */
export declare function yieldToOwnThreads(step?: number): void;
