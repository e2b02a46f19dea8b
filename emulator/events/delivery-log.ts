/**
 * One try to hand an event to a sink.
 *
 * @example
 * const a: DeliveryAttempt = { time: "2026-11-28T14:00:00.000Z", durationMs: 3, status: 503 };
 */
export interface DeliveryAttempt {
  /** When it started (RFC 3339). */
  time: string;
  durationMs: number;
  /** The sink's HTTP status, when it answered. */
  status?: number;
  /** Why no status: `connection refused`, `timed out after 5000 ms`, … */
  error?: string;
  /** The start of the sink's answer (at most 512 characters): a receiver says there why it refused. */
  response?: string;
}

/**
 * Where a delivery stands: `pending` (an attempt runs or waits for its backoff), `accepted` (a 2xx),
 * `rejected` (another answer that is not retried: a 4xx other than 429, a redirect, a sink that may
 * not be delivered to), `failed` (every attempt failed), `cancelled` (the subscription was deleted,
 * or the emulator closed, before an attempt).
 *
 * @example
 * const done: DeliveryOutcome[] = ["accepted", "rejected", "failed", "cancelled"];
 */
export type DeliveryOutcome = "pending" | "accepted" | "rejected" | "failed" | "cancelled";

/**
 * One event on its way to one subscription, as `GET /_emulator/deliveries` lists it.
 *
 * @example
 * const accepted = (await emu.deliveries()).filter((d) => d.outcome === "accepted");
 */
export interface DeliveryRecord {
  /** The CloudEvent id: the same for every attempt, and for every subscription of one write. */
  eventId: string;
  type: string;
  subject: string;
  /** The event's `group` extension. */
  group: string;
  subscription: string;
  sink: string;
  /** When the write answered (RFC 3339). */
  writeTime: string;
  outcome: DeliveryOutcome;
  attempts: DeliveryAttempt[];
}

/**
 * The filters of `GET /_emulator/deliveries`.
 *
 * @example
 * log.list({ type: "dev.chainguard.api.iam.group.created.v1", outcome: "accepted" });
 */
export interface DeliveryFilter {
  type?: string | undefined;
  subscription?: string | undefined;
  outcome?: string | undefined;
}

/**
 * The deliveries of this run, oldest first; past {@link DeliveryLog.limit} the oldest are forgotten,
 * finished or not (a forgotten delivery still runs, and the counters keep counting): a dead sink
 * can hold thousands pending, and a write must not pay to look past them.
 *
 * @example
 * const log = new DeliveryLog();
 * log.add(record);
 * log.list({ outcome: "pending" });
 */
export class DeliveryLog {
  private readonly records: DeliveryRecord[] = [];

  constructor(readonly limit = 2000) {}

  /**
   * Keeps a new delivery.
   *
   * @example
   * log.add({ ...record, outcome: "pending", attempts: [] });
   */
  add(record: DeliveryRecord): void {
    this.records.push(record);
    // Dropped in batches: one shift per add would move the whole array each time.
    if (this.records.length > this.limit + this.limit / 4)
      this.records.splice(0, this.records.length - this.limit);
  }

  /**
   * The deliveries that match every filter given.
   *
   * @example
   * log.list({ subscription: subUid });
   */
  list(filter: DeliveryFilter = {}): DeliveryRecord[] {
    const kept = this.records.length > this.limit ? this.records.slice(-this.limit) : this.records;
    return kept.filter(
      (r) =>
        (filter.type === undefined || r.type === filter.type) &&
        (filter.subscription === undefined || r.subscription === filter.subscription) &&
        (filter.outcome === undefined || r.outcome === filter.outcome),
    );
  }
}
