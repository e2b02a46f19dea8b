import { setTimeout as sleep } from "node:timers/promises";

/**
 * One answer's evidence about the service's clock: our clock when the request left and when the
 * answer came (ms since the epoch), and the answer's `Date` header (the service's time when it
 * answered, truncated to the second).
 *
 * @example
 * const sample: ClockSample = { sentAt: 1795000000120, receivedAt: 1795000000180, serverDate: 1795000001000 };
 */
export interface ClockSample {
  sentAt: number;
  receivedAt: number;
  serverDate: number;
}

/**
 * How far the service's clock is ahead of ours (negative: behind), in ms, as a range sure to hold
 * the true offset: every sample bounds it, and the range is their intersection.
 *
 * @example
 * const { lowMs, highMs }: ClockOffset = clockOffset(samples);
 */
export interface ClockOffset {
  lowMs: number;
  highMs: number;
}

/**
 * The offset the samples prove. The service answered at some instant between `sentAt` and
 * `receivedAt` of ours, and its clock then read between `serverDate` and `serverDate + 1 s` (a
 * `Date` header has whole seconds); samples a fraction of a second apart that see the second change
 * narrow the range to about their spacing plus a round trip.
 *
 * @example
 * clockOffset([{ sentAt: 0, receivedAt: 50, serverDate: 30_000 }]); // { lowMs: 29_950, highMs: 31_000 }
 */
export function clockOffset(samples: readonly ClockSample[]): ClockOffset {
  if (samples.length === 0) throw new RangeError("clockOffset needs at least one sample");
  let lowMs = Number.NEGATIVE_INFINITY;
  let highMs = Number.POSITIVE_INFINITY;
  for (const s of samples) {
    lowMs = Math.max(lowMs, s.serverDate - s.receivedAt);
    highMs = Math.min(highMs, s.serverDate + 1000 - s.sentAt);
  }
  // Disjoint ranges mean a clock moved while we measured: keep the widest honest answer.
  if (lowMs > highMs) [lowMs, highMs] = [highMs, lowMs];
  return { lowMs, highMs };
}

/**
 * Options of {@link measureServiceClock}; all but the URL are for tests.
 *
 * @example
 * await measureServiceClock({ baseUrl: "https://api.irv.example" });
 */
export interface MeasureClockOptions {
  /** The API base URL; the probes are unauthenticated GETs of its groups collection. */
  baseUrl: string;
  /** Probes (default 6), `spacingMs` apart (default 220): together they span more than a second. */
  samples?: number | undefined;
  spacingMs?: number | undefined;
  /** Our clock (ms since the epoch). */
  now?: (() => number) | undefined;
  sleep?: ((ms: number) => Promise<unknown>) | undefined;
  /** Sends one probe and returns the answer's `Date` header (undefined when it has none). */
  probe?: ((url: string) => Promise<string | undefined>) | undefined;
}

const fetchDate = async (url: string): Promise<string | undefined> => {
  // No credentials: any answer, a 401 included, carries the service's Date.
  const answer = await fetch(url, { method: "GET", redirect: "manual", signal: AbortSignal.timeout(10_000) });
  await answer.arrayBuffer();
  return answer.headers.get("date") ?? undefined;
};

/**
 * Measures the service's clock against ours from the `Date` header of a few unauthenticated
 * answers spread over a little more than a second. Undefined when an answer has no `Date` header.
 *
 * @example
 * const offset = await measureServiceClock({ baseUrl });
 * // { lowMs: 1830, highMs: 2070 }: the service's clock is about 2 s ahead of ours
 */
export async function measureServiceClock(options: MeasureClockOptions): Promise<ClockOffset | undefined> {
  const now = options.now ?? Date.now;
  const wait = options.sleep ?? sleep;
  const probe = options.probe ?? fetchDate;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/iam/v2/groups?page_size=1`;
  const samples: ClockSample[] = [];
  const count = options.samples ?? 6;
  for (let i = 0; i < count; i++) {
    if (i > 0) await wait(options.spacingMs ?? 220);
    const sentAt = now();
    const date = await probe(url);
    const receivedAt = now();
    const serverDate = date === undefined ? Number.NaN : Date.parse(date);
    if (Number.isNaN(serverDate)) return undefined;
    samples.push({ sentAt, receivedAt, serverDate });
  }
  return clockOffset(samples);
}

/**
 * The offset in words, for recover's report.
 *
 * @example
 * describeOffset({ lowMs: 1830, highMs: 2070 }); // "the service's clock is 1.95 s ahead of ours (± 0.12 s)"
 */
export function describeOffset(o: ClockOffset): string {
  const mid = (o.lowMs + o.highMs) / 2;
  const spread = (o.highMs - o.lowMs) / 2;
  const s = (ms: number) => (Math.abs(ms) / 1000).toFixed(2);
  return `the service's clock is ${s(mid)} s ${mid >= 0 ? "ahead of" : "behind"} ours (± ${s(spread)} s)`;
}
