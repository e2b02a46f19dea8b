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
  /** The webhook deliveries (`GET /_emulator/deliveries` lists them). */
  deliveries: DeliveryCounts;
}

/**
 * The webhook deliveries counted: `queued` (one per event and subscription), `attempts`, and how
 * many ended `accepted`, `rejected`, `failed` or `cancelled` (queued minus these are pending).
 *
 * @example
 * expect(emu.stats().deliveries).toMatchObject({ queued: 1, attempts: 4, accepted: 1 });
 */
export interface DeliveryCounts {
  queued: number;
  attempts: number;
  accepted: number;
  rejected: number;
  failed: number;
  cancelled: number;
}

/**
 * One of the delivery counters.
 *
 * @example
 * stats.recordDelivery("attempts");
 */
export type DeliveryCount = keyof DeliveryCounts;

const NO_DELIVERIES: Readonly<DeliveryCounts> = {
  queued: 0,
  attempts: 0,
  accepted: 0,
  rejected: 0,
  failed: 0,
  cancelled: 0,
};

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
  private deliveries: DeliveryCounts = { ...NO_DELIVERIES };

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
   * Counts one step of a webhook delivery.
   *
   * @example
   * stats.recordDelivery("accepted");
   */
  recordDelivery(count: DeliveryCount): void {
    this.deliveries[count]++;
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
      deliveries: { ...this.deliveries },
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
    this.deliveries = { ...NO_DELIVERIES };
  }
}
