import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "../errors/api-error.js";
import { Code } from "../errors/codes.js";
import { DEFAULT_RETRY_POLICY } from "../retry/index.js";

/**
 * Options of {@link AdaptiveRateLimiter}.
 *
 * @example
 * const options: RateLimiterOptions = { maxRequestsPerSecond: 20 };
 * new IrvClient({ baseUrl, token, rateLimiter: new AdaptiveRateLimiter(options) });
 */
export interface RateLimiterOptions {
  /** An explicit cap in requests per second (`irv:maxRequestsPerSecond`); none by default. */
  maxRequestsPerSecond?: number | undefined;
  /**
   * Requests in flight at once (default 16, the transport's connections per origin). Waiting here
   * rather than in the connection pool means that when the first 429 comes back, at most this many
   * requests were sent at the old pace.
   */
  maxInFlight?: number | undefined;
  /**
   * How long one request may keep being refused with RESOURCE_EXHAUSTED and sent again, in ms,
   * counted from its first refusal (default 10 minutes). Refusals within it do not count as
   * attempts of the retry policy.
   */
  maxThrottledMs?: number | undefined;
  /**
   * The longest pause one RESOURCE_EXHAUSTED answer may impose on every request, in ms, whatever
   * `RetryInfo`/`Retry-After` it asks for (default 10 s, the retry policy's `maxDelayMs`, which is
   * `irv:retryMaxDelayMs` in the provider). The pause holds the whole client, so a server's
   * `Retry-After: 999999` must not stall a provider process for days.
   */
  maxPauseMs?: number | undefined;
  /** Monotonic time in ms; `performance.now` by default. */
  now?: (() => number) | undefined;
  /** Sleep, injectable for unit tests. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
}

/**
 * The limiter's view, for logs and tests.
 *
 * @example
 * const { rate, throttled }: RateLimiterState = limiter.state();
 */
export interface RateLimiterState {
  /** Requests per second it lets through now (`Infinity`: unlimited). */
  rate: number;
  /** RESOURCE_EXHAUSTED answers seen so far. */
  throttled: number;
  /** Times it lowered the rate. */
  cuts: number;
}

/**
 * One logical request's dealings with the limiter, across its attempts.
 *
 * @example
 * const turn = limiter.turn();
 * await turn.ready(signal);          // before each attempt
 * if (turn.answered(error)) resend(); // after each answer: true for a refusal to send again
 */
export interface LimiterTurn {
  /** Waits until this attempt may be sent. */
  ready(signal?: AbortSignal): Promise<void>;
  /**
   * Reports the attempt's outcome (`undefined` for a success). Returns true when it was refused with
   * RESOURCE_EXHAUSTED and should simply be sent again (the wait happens in the next `ready`).
   */
  answered(error?: unknown): boolean;
}

// After a refusal the rate drops to BACKOFF × the accepted rate measured over the last WINDOW_MS,
// climbs back to that measured rate over RECOVER_MS, then grows by PROBE per second to find out
// whether the service allows more (it may have raised the limit, or others may have stopped).
const BACKOFF = 0.9;
const WINDOW_MS = 1000;
const RECOVER_MS = 2000;
const PROBE = 1.25;
const MIN_RATE = 0.5;
// Slots left unused while no request waited may be spent later, up to CREDIT_S seconds' worth of the
// learned rate: the service's own bucket refilled at least as fast meanwhile (we pace below the
// rate it accepted), so a short burst after a lull is accepted, and requests that come in clumps (a
// parent's children, all ready at once) do not queue behind empty slots. A refusal of a request
// sent on credit halves it: the service's burst is smaller than that.
const CREDIT_S = 1;
const MIN_CREDIT_S = 0.05;

/**
 * A client-side rate limiter shared by every request of one client (so, in the provider, of one
 * provider process), that learns the rate the service allows. It starts unlimited (or at the
 * explicit cap); on a RESOURCE_EXHAUSTED (429) answer it pauses every request for the
 * `RetryInfo`/`Retry-After` the service gave (at most `maxPauseMs`), and paces requests at 90 % of the rate the service
 * was accepting over the last second; then it climbs back over two seconds and probes upwards by 25 %
 * a second until the next refusal. Slots left unused while nobody asked may be spent later, up to
 * one second of the learned rate (halved by each refusal of a request sent on them; none under an
 * explicit cap), so requests that arrive in clumps after a lull do not wait behind empty slots.
 * Requests queue for their slot, so a 3,000-resource `up` under a
 * limit wastes a few requests per probe instead of retrying in a storm. Answers to requests sent
 * before the last cut do not cut again: one overload is one cut.
 *
 * @example
 * const limiter = new AdaptiveRateLimiter({ maxRequestsPerSecond: 50 });
 * const client = new IrvClient({ baseUrl, token, rateLimiter: limiter });
 * // … later: limiter.state() → { rate: 45, throttled: 3, cuts: 1 }
 */
export class AdaptiveRateLimiter {
  private readonly cap: number;
  private readonly maxThrottledMs: number;
  private readonly maxPauseMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Rate measured when last cut (0: never cut, the rate is the cap). */
  private measured = 0;
  private cutAt = Number.NEGATIVE_INFINITY;
  private nextSlot = 0;
  private pausedUntil = 0;
  /** Bumped on every cut: waiters re-take their slot at the new pace. */
  private generation = 0;
  private readonly accepted: number[] = [];
  private readonly maxInFlight: number;
  private inFlight = 0;
  private readonly waiting: { resolve(): void }[] = [];
  private throttled = 0;
  private cuts = 0;
  /** Seconds of the learned rate that unused slots may accumulate to (see CREDIT_S). */
  private creditS = CREDIT_S;

  constructor(options: RateLimiterOptions = {}) {
    const cap = options.maxRequestsPerSecond;
    if (cap !== undefined && !(cap > 0)) {
      throw new RangeError(`maxRequestsPerSecond must be a number above 0, got ${cap}`);
    }
    this.cap = cap ?? Number.POSITIVE_INFINITY;
    const maxInFlight = options.maxInFlight ?? 16;
    if (!(Number.isInteger(maxInFlight) && maxInFlight >= 1)) {
      throw new RangeError(`maxInFlight must be a whole number of at least 1, got ${maxInFlight}`);
    }
    this.maxInFlight = maxInFlight;
    this.maxThrottledMs = options.maxThrottledMs ?? 600_000;
    const maxPauseMs = options.maxPauseMs ?? DEFAULT_RETRY_POLICY.maxDelayMs;
    if (!(maxPauseMs >= 0))
      throw new RangeError(`maxPauseMs must be a number of at least 0, got ${maxPauseMs}`);
    this.maxPauseMs = maxPauseMs;
    this.now = options.now ?? (() => performance.now());
    this.sleep = options.sleep ?? ((ms, signal) => sleep(ms, undefined, signal ? { signal } : {}));
  }

  /**
   * The rate it lets through now, the refusals seen and the cuts made.
   *
   * @example
   * limiter.state().rate; // Infinity until the first 429
   */
  state(): RateLimiterState {
    return { rate: this.rateAt(this.now()), throttled: this.throttled, cuts: this.cuts };
  }

  /**
   * Starts one logical request (see {@link LimiterTurn}).
   *
   * @example
   * const turn = limiter.turn();
   */
  turn(): LimiterTurn {
    let sentAt = 0;
    let onCredit = false;
    let firstRefusal: number | undefined;
    let holding = false;
    const release = () => {
      if (holding) this.release();
      holding = false;
    };
    return {
      ready: async (signal) => {
        release();
        await this.enter(signal);
        holding = true;
        try {
          ({ sentAt, onCredit } = await this.acquire(signal));
        } catch (e) {
          release();
          throw e;
        }
      },
      answered: (error) => {
        release();
        const now = this.now();
        if (!(error instanceof ApiError)) {
          // A network failure says nothing about the service's limit.
          if (error === undefined) this.recordAccepted(now);
          return false;
        }
        if (error.code !== Code.RESOURCE_EXHAUSTED) {
          this.recordAccepted(now);
          return false;
        }
        this.throttled++;
        const pauseMs = Math.min(error.retryAfterMs ?? 0, this.maxPauseMs);
        this.onThrottled(now, sentAt, onCredit, pauseMs);
        firstRefusal ??= now;
        return now - firstRefusal + pauseMs <= this.maxThrottledMs;
      },
    };
  }

  // A first-come first-served gate of maxInFlight places.
  private enter(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    // The place passes straight to the next waiter: inFlight stays the same.
    if (next) next.resolve();
    else this.inFlight--;
  }

  private async acquire(signal?: AbortSignal): Promise<{ sentAt: number; onCredit: boolean }> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      const rate = this.rateAt(now);
      let at = Math.max(now, this.pausedUntil);
      let onCredit = false;
      if (Number.isFinite(rate)) {
        // Virtual scheduling: the slot is the next unused one, no further back than the credit
        // allows (an explicit cap alone earns none: the user asked for at most that pace).
        const credit = this.measured > 0 && !Number.isFinite(this.cap) ? this.creditS * 1000 : 0;
        const slot = Math.max(this.nextSlot, now - credit, this.pausedUntil);
        onCredit = slot < now;
        at = Math.max(slot, now);
        this.nextSlot = slot + 1000 / rate;
      }
      if (at <= now) return { sentAt: now, onCredit };
      const generation = this.generation;
      await this.sleep(at - now, signal);
      // A cut or a pause while we slept: take a slot again at the new pace.
      const woke = this.now();
      if (generation === this.generation && woke >= this.pausedUntil)
        return { sentAt: woke, onCredit: false };
    }
  }

  private rateAt(now: number): number {
    if (this.measured === 0) return this.cap;
    const since = now - this.cutAt;
    const rate =
      since <= RECOVER_MS
        ? this.measured * (BACKOFF + (1 - BACKOFF) * (since / RECOVER_MS))
        : this.measured * PROBE ** ((since - RECOVER_MS) / 1000);
    return Math.min(this.cap, Math.max(MIN_RATE, rate));
  }

  private recordAccepted(now: number): void {
    this.accepted.push(now);
    // Old samples are dropped in bulk, so that recording stays O(1) amortised.
    if (this.accepted.length > 64 && (this.accepted[0] as number) < now - 2 * WINDOW_MS) {
      const keep = this.accepted.findIndex((t) => t >= now - WINDOW_MS);
      this.accepted.splice(0, keep < 0 ? this.accepted.length : keep);
    }
  }

  // Answers accepted over the last second. Once the service refuses, that is the rate it allows
  // (plus whatever burst it let through within that second, which later cuts correct).
  private acceptingRate(now: number): number {
    let recent = 0;
    for (let i = this.accepted.length - 1; i >= 0 && (this.accepted[i] as number) >= now - WINDOW_MS; i--)
      recent++;
    return Math.max(MIN_RATE, (recent * 1000) / WINDOW_MS);
  }

  private onThrottled(now: number, sentAt: number, onCredit: boolean, pauseMs: number): void {
    if (pauseMs > 0) this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
    // Sent before the last cut: that cut already answered this overload.
    if (sentAt <= this.cutAt) return;
    if (onCredit) this.creditS = this.creditS / 2 < MIN_CREDIT_S ? 0 : this.creditS / 2;
    const current = this.rateAt(now);
    const accepting = this.acceptingRate(now);
    this.measured = Math.min(Number.isFinite(current) ? current : accepting, accepting);
    this.cutAt = now;
    this.cuts++;
    this.generation++;
    this.nextSlot = Math.max(now, this.pausedUntil);
  }
}
