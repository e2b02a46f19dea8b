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
  private requests = new Map<string, number>();
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
    const key = `${method} ${pattern}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
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
      requests: Object.fromEntries(this.requests),
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
    this.requests.clear();
    this.updateMasks.clear();
    this.rateLimited = 0;
  }
}
