/**
 * The build's one pool of worker threads (record threads and file writers both use it): tasks go
 * to the thread with the fewest out, at most `perThread` per thread at once (which bounds the
 * memory of tasks waiting their turn), and the first failure fails every pending task and every
 * later one. A thread's entry answers with `answerTasks` (pool-thread.mjs).
 *
 * Small enough to own: a pool library (piscina, workerpool) brings its own queue and task
 * protocol, and would add a dependency for the ~100 lines here.
 */
import { type ResourceLimits, type Transferable, Worker } from "node:worker_threads";

export interface WorkerPool<Task, Result> {
  /** Runs `task` in a thread; what `transfer` lists moves to the thread (the caller must not use it after). */
  run(task: Task, transfer?: readonly Transferable[]): Promise<Result>;
  /** Settles when fewer than the bound of tasks are out; rejects with the first failure. */
  room(): Promise<void>;
  /** Stops the threads (pending tasks fail). Always call it: the threads keep the process alive. */
  close(): Promise<void>;
}

/** What a failure keeps when it crosses threads (structured clone drops an Error's code and path). */
export interface ThreadError {
  readonly message: string;
  readonly stack?: string;
  readonly code?: string;
  readonly path?: string;
  readonly syscall?: string;
}

type Reply = { readonly id: number; readonly result: unknown } | { readonly id: number; readonly error: ThreadError };

interface Pending {
  readonly resolve: (result: never) => void;
  readonly reject: (error: Error) => void;
}

interface Thread {
  readonly worker: Worker;
  out: number;
}

/**
 * Starts `count` threads running `entry` (given `workerData`), each taking at most `perThread` tasks
 * at once; `resourceLimits`: each thread's heap limits (Node's defaults when not given). A thread
 * past its limit fails the pool with ERR_WORKER_OUT_OF_MEMORY.
 */
export function startWorkerPool<Task, Result>(
  entry: URL,
  count: number,
  perThread: number,
  workerData?: unknown,
  resourceLimits?: ResourceLimits,
): WorkerPool<Task, Result> {
  const limit = count * perThread;
  const pending = new Map<number, Pending & { readonly thread: Thread }>();
  let waiting: Pending[] = [];
  let nextId = 0;
  let failure: Error | undefined;
  let closing: Promise<void> | undefined;

  const fail = (error: Error): void => {
    failure ??= error;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  const threads: Thread[] = Array.from({ length: count }, () => {
    // No execArgv: an entry that needs TypeScript registers tsx itself; the parent's `--import tsx` would load it twice.
    const thread: Thread = { worker: new Worker(entry, { execArgv: [], workerData, ...(resourceLimits && { resourceLimits }) }), out: 0 };
    thread.worker.on("message", (reply: Reply) => {
      const p = pending.get(reply.id);
      if (p === undefined) return;
      pending.delete(reply.id);
      thread.out -= 1;
      if ("error" in reply) {
        p.reject(threadError(reply.error));
        fail(threadError(reply.error));
        return;
      }
      p.resolve(reply.result as never);
      if (pending.size < limit) for (const w of waiting.splice(0)) w.resolve(undefined as never);
    });
    thread.worker.on("error", fail);
    thread.worker.on("exit", (code) => {
      if (closing === undefined) fail(new Error(`a worker thread stopped (exit code ${code}) before its pool was closed`));
    });
    return thread;
  });

  return {
    run(task, transfer = []) {
      if (failure !== undefined) return Promise.reject(failure);
      const id = nextId++;
      const thread = threads.reduce((best, t) => (t.out < best.out ? t : best));
      return new Promise<Result>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (result: never) => void, reject, thread });
        thread.out += 1;
        try {
          thread.worker.postMessage({ id, task }, transfer);
        } catch (error) {
          pending.delete(id);
          thread.out -= 1;
          reject(error as Error);
        }
      });
    },
    room() {
      if (failure !== undefined) return Promise.reject(failure);
      if (pending.size < limit) return Promise.resolve();
      return new Promise<void>((resolve, reject) => waiting.push({ resolve: resolve as (result: never) => void, reject }));
    },
    close() {
      waiting = [];
      closing ??= Promise.all(threads.map((t) => t.worker.terminate())).then(() => undefined);
      return closing;
    },
  };
}

/** A thread's failure as an Error of this thread, keeping its code and path for callers and messages. */
function threadError(fields: ThreadError): Error {
  const error: NodeJS.ErrnoException = new Error(fields.message);
  if (fields.stack !== undefined) error.stack = fields.stack;
  if (fields.code !== undefined) error.code = fields.code;
  if (fields.path !== undefined) error.path = fields.path;
  if (fields.syscall !== undefined) error.syscall = fields.syscall;
  return error;
}
