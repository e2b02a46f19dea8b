/**
 * What one attempt came to, for the lane: the sink `answered` (a 2xx, or an answer not worth
 * retrying), it `failed` (a 5xx, a 429, a timeout, no connection) and the job goes back to the head
 * of the lane, it failed for the job's `last` time, or the job was `skipped` without a request (its
 * subscription is gone).
 *
 * @example
 * const result: AttemptResult = "failed";
 */
export type AttemptResult = "answered" | "failed" | "last" | "skipped";

/**
 * How a lane runs its jobs.
 *
 * @example
 * const options: SinkLaneOptions<Job> = { concurrency: 8, backoffMs: (n) => 100 * 2 ** (n - 1), attempt: (job) => send(job), maxQueued: 10_000, overflow: (job) => drop(job) };
 */
export interface SinkLaneOptions<T> {
  /** Attempts in flight at once while the sink answers. */
  concurrency: number;
  /** The pause after the n-th failure in a row, ms, given the job that failed (its answer may ask for one). */
  backoffMs: (failures: number, job: T) => number;
  attempt: (job: T) => Promise<AttemptResult>;
  /** Jobs waiting at most; a job beyond it is handed to `overflow` instead. */
  maxQueued: number;
  overflow: (job: T) => void;
}

/**
 * The deliveries to one sink, in order. While the sink answers, up to `concurrency` attempts run at
 * once. Once an attempt fails, the sink rests for the backoff, then one job alone probes it (the
 * failed one first, so that a delivery's retries keep their order); the others wait, so a dead sink
 * costs one attempt per backoff period however many writes queue behind it, and a write never pays
 * for it. A probe that succeeds opens the lane again.
 *
 * @example
 * const lane = new SinkLane({ concurrency: 8, backoffMs: (n) => 100 * 2 ** (n - 1), attempt, maxQueued: 10_000, overflow });
 * lane.push(job);
 */
export class SinkLane<T> {
  private readonly queue: T[] = [];
  private inFlight = 0;
  private failures = 0;
  private restUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: SinkLaneOptions<T>) {}

  /**
   * Queues a job at the end of the lane.
   *
   * @example
   * lane.push(job);
   */
  push(job: T): void {
    if (this.queue.length >= this.o.maxQueued) {
      this.o.overflow(job);
      return;
    }
    this.queue.push(job);
    this.pump();
  }

  /**
   * Stops: no attempt starts after this; the waiting jobs are handed back.
   *
   * @example
   * for (const job of lane.close()) cancel(job);
   */
  close(): T[] {
    this.closed = true;
    clearTimeout(this.timer);
    return this.queue.splice(0);
  }

  // The rest is timed by Date.now, not the emulator's `clock` option: it is waited with a timer, in
  // real time, and a test's clock may stand still (the rest would never end) or jump.
  private pump(): void {
    if (this.closed) return;
    if (this.failures > 0) {
      // Resting, or a probe is out: one attempt at a time until the sink answers again.
      if (this.inFlight > 0 || this.queue.length === 0) return;
      const wait = this.restUntil - Date.now();
      if (wait > 0) {
        if (this.timer === undefined) {
          this.timer = setTimeout(() => {
            this.timer = undefined;
            this.pump();
          }, wait);
        }
        return;
      }
      this.run(this.queue.shift() as T);
      return;
    }
    while (this.inFlight < this.o.concurrency && this.queue.length > 0) this.run(this.queue.shift() as T);
  }

  private run(job: T): void {
    this.inFlight++;
    void this.o.attempt(job).then((result) => {
      this.inFlight--;
      if (result === "answered") this.failures = 0;
      else if (result === "failed" || result === "last") {
        this.failures++;
        this.restUntil = Date.now() + this.o.backoffMs(this.failures, job);
        if (result === "failed") this.queue.unshift(job);
      }
      // On a later turn: jobs skipped without a request (a deleted subscription's) would otherwise
      // chain promise after promise and keep the writes waiting.
      setImmediate(() => this.pump());
    });
  }
}
