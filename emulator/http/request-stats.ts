/**
 * What `GET /_emulator/stats` answers.
 *
 * @example
 * expect(emu.stats().updateMasks).toEqual({ description: 1 });
 */
export interface StatsSnapshot {
  /** Every API and STS request counted, faulted ones included. */
  total: number;
  /** Count per `"<METHOD> <route pattern>"`, e.g. `"PATCH /iam/v2beta1/groups/*"` (no query). */
  requests: Record<string, number>;
  /** Count of PATCH requests (and gRPC updates) per `updateMask` value as sent, e.g. `{"description": 1}`. */
  updateMasks: Record<string, number>;
  /** Requests refused with 429 by the per-caller rate limit (counted in `total` and `requests` too). */
  rateLimited: number;
}

/**
 * Counts API requests by route pattern, so tests can assert how a client talked to the API ("one
 * PATCH with updateMask=description, no DELETE").
 *
 * @example
 * stats.record("PATCH", "/iam/v2beta1/groups/*", "description");
 * stats.snapshot().updateMasks; // { description: 1 }
 */
export class RequestStats {
  private total = 0;
  // Counters by method, then pattern: every request is counted, and a `"<METHOD> <pattern>"` key
  // would be a new string to hash each time, where the route's pattern is one string whose hash is
  // kept (issue 40). The counters themselves sit in first-counted order, the snapshot's key order.
  private byMethod = new Map<string, Map<string, { key: string; n: number }>>();
  private requests: { key: string; n: number }[] = [];
  private updateMasks = new Map<string, number>();
  private rateLimited = 0;

  /**
   * Counts one request.
   *
   * @example
   * stats.record("GET", "/iam/v2beta1/groups", undefined);
   */
  record(method: string, pattern: string, updateMask: string | undefined): void {
    this.total++;
    let byPattern = this.byMethod.get(method);
    if (byPattern === undefined) {
      byPattern = new Map();
      this.byMethod.set(method, byPattern);
    }
    const counter = byPattern.get(pattern);
    if (counter !== undefined) counter.n++;
    else {
      const created = { key: `${method} ${pattern}`, n: 1 };
      byPattern.set(pattern, created);
      this.requests.push(created);
    }
    if ((method === "PATCH" || method === "GRPC") && updateMask !== undefined) {
      this.updateMasks.set(updateMask, (this.updateMasks.get(updateMask) ?? 0) + 1);
    }
  }

  /**
   * Counts one request refused by the rate limit (already counted by {@link record}).
   *
   * @example
   * stats.recordRateLimited();
   */
  recordRateLimited(): void {
    this.rateLimited++;
  }

  /**
   * The counts so far.
   *
   * @example
   * stats.snapshot().total;
   */
  snapshot(): StatsSnapshot {
    return {
      total: this.total,
      requests: Object.fromEntries(this.requests.map((c) => [c.key, c.n])),
      updateMasks: Object.fromEntries(this.updateMasks),
      rateLimited: this.rateLimited,
    };
  }

  /**
   * Starts counting from zero.
   *
   * @example
   * stats.reset();
   */
  reset(): void {
    this.total = 0;
    this.byMethod.clear();
    this.requests = [];
    this.updateMasks.clear();
    this.rateLimited = 0;
  }
}
