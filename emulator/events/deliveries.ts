import { randomUUID } from "node:crypto";
import type { JsonObject, JsonValue, Registry } from "@bufbuild/protobuf";
import { fromJson, toJson } from "@bufbuild/protobuf";
import { sinkProblem } from "pulumi-irv/sdk";
import type { WorkloadTokenRequest } from "../auth/index.js";
import type { Clock } from "../core/index.js";
import { formatTimestamp } from "../core/index.js";
import type { DeliveryCount } from "../http/index.js";
import type { WriteNotice } from "../resources/index.js";
import type { CloudEvent } from "./cloud-event.js";
import { binaryModeHeaders, dataDigest } from "./cloud-event.js";
import type { DeliveryRecord } from "./delivery-log.js";
import { DeliveryLog } from "./delivery-log.js";
import type { DeliveryPolicy } from "./delivery-policy.js";
import {
  DEFAULT_DELIVERY_POLICY,
  isRetryableStatus,
  requestedPauseMs,
  retryDelayMs,
} from "./delivery-policy.js";
import type { EventAnnotations, WriteEvent } from "./event-annotations.js";
import { bodyRule, eventGroup } from "./event-rules.js";
import type { AttemptResult } from "./sink-lane.js";
import { SinkLane } from "./sink-lane.js";
import type { SubscriptionSource } from "./subscription-source.js";

/**
 * What the deliveries are built from.
 *
 * @example
 * new Deliveries({ annotations, subscriptions: storedSubscriptions(service.table), registry: WIRE_REGISTRY, source: () => baseUrl, mint: (r) => issuer.mint(r), clock: Date.now });
 */
export interface DeliveriesOptions {
  annotations: EventAnnotations;
  subscriptions: SubscriptionSource;
  /** Resolves the body messages' types (the generated descriptors). */
  registry: Registry;
  /** The CloudEvent `source`: the emulator's base URL (known once it listens). */
  source: () => string;
  /** Signs a token with the emulator's own issuer (its `issuerUrl`). */
  mint: (request: WorkloadTokenRequest) => Promise<string>;
  clock: Clock;
  policy?: Partial<DeliveryPolicy> | undefined;
  /** Told of every count ({@link DeliveryCount}), for the stats. */
  onCount?: ((count: DeliveryCount) => void) | undefined;
  /** Kept deliveries (default 2000). */
  logLimit?: number | undefined;
}

/**
 * One write's event, shared by its deliveries. Its data and extensions are built at its first
 * attempt, not in the write's wake: a sink that is down (its lane resting) never costs a write the
 * protojson body, and every delivery of the write sends the same bytes.
 */
interface Occurrence {
  write: WriteNotice;
  annotation: WriteEvent;
  group: string;
  built?: { data: Buffer; extensions: Record<string, string> } | "failed";
}

interface Pending {
  record: DeliveryRecord;
  occurrence: Occurrence;
  /** The group of its subscription: the token's subject. */
  subscriptionGroup: string;
  token: { value: string; mintedAt: number } | undefined;
  /** The pause the last attempt's answer asked for (a 429 or 503 with `Retry-After`), ms. */
  pauseMs?: number | undefined;
}

// A webhook token lives ten minutes; one older than five is minted again before an attempt.
const TOKEN_TTL_SECONDS = 600;
const TOKEN_REUSE_MS = 300_000;
const RESPONSE_EXCERPT = 512;
// Attempts in flight to one sink while it answers, and deliveries waiting for it at most.
const LANE_CONCURRENCY = 8;
const MAX_QUEUED_PER_SINK = 10_000;

/**
 * The webhook deliveries of the emulator. {@link written} is told of every committed write; a write
 * whose rpc the published definitions annotate with a `CUSTOMER` event becomes one CloudEvent, sent
 * to every subscription on the event's group or a group above it. Nothing is sent before the write's
 * answer: the write only queues one record per subscription; the records reach their sinks' lanes
 * on a later turn, and the event itself (body, data, extensions) is built at its first attempt, once
 * for all of the write's deliveries, so a resting lane costs a write nothing more. Nothing of it can
 * fail the write. Each delivery is retried with backoff on a 5xx, a 429, a timeout or a failed connection, with the
 * same CloudEvent id, after the pause a 429's or 503's `Retry-After` asks for when it is longer (up
 * to the policy's cap); other answers end it. Redirects are not followed. The deliveries to one
 * sink go through its {@link SinkLane}: while the sink fails, one attempt per backoff period probes it and
 * the others wait, so a dead sink's cost does not grow with the writes.
 *
 * @example
 * const deliveries = new Deliveries(options);
 * service.onWrite((w) => deliveries.written(w));
 * deliveries.log.list({ outcome: "accepted" });
 */
export class Deliveries {
  readonly log: DeliveryLog;
  readonly policy: DeliveryPolicy;
  /** Deliveries queued in this turn, handed to their lanes in the next. */
  private readonly incoming: Pending[] = [];
  private handOff: NodeJS.Immediate | undefined;
  private readonly lanes = new Map<string, SinkLane<Pending>>();
  private readonly abort = new AbortController();
  private closed = false;

  constructor(private readonly o: DeliveriesOptions) {
    this.policy = { ...DEFAULT_DELIVERY_POLICY, ...o.policy };
    this.log = new DeliveryLog(o.logLimit);
  }

  /**
   * Takes note of a committed write: when it has a `CUSTOMER` event and subscriptions cover its
   * group, queues one delivery per subscription, to start after the current turn (the answer).
   *
   * @example
   * deliveries.written({ kind: "groups", verb: "create", caller, uid, scope: parentUid, answer });
   */
  written(write: WriteNotice): void {
    if (this.closed) return;
    const annotation = this.o.annotations.get(write.kind, write.verb, write.rpc);
    if (annotation?.audience !== "customer") return;
    const rule = bodyRule(annotation.body.typeName);
    const group = eventGroup(rule.group, write.uid, write.scope);
    const targets = this.o.subscriptions.covering(group);
    if (targets.length === 0) return;
    const writeTime = formatTimestamp(this.o.clock());
    const eventId = randomUUID();
    const occurrence: Occurrence = { write, annotation, group };
    for (const target of targets) {
      const record: DeliveryRecord = {
        eventId,
        type: annotation.type,
        subject: write.uid,
        group,
        subscription: target.uid,
        sink: target.sink,
        writeTime,
        outcome: "pending",
        attempts: [],
      };
      this.log.add(record);
      this.o.onCount?.("queued");
      this.incoming.push({ record, occurrence, subscriptionGroup: target.group, token: undefined });
    }
    // The answer goes out in this turn; the deliveries reach their lanes in a later one, all the
    // writes of a turn at once.
    this.handOff ??= setImmediate(() => {
      this.handOff = undefined;
      for (const p of this.incoming.splice(0)) this.lane(p.record.sink).push(p);
    });
  }

  /**
   * Stops: no attempt starts after this, and those running are aborted.
   *
   * @example
   * deliveries.close();
   */
  close(): void {
    this.closed = true;
    clearImmediate(this.handOff);
    this.incoming.length = 0;
    for (const lane of this.lanes.values()) lane.close();
    this.abort.abort();
    for (const r of this.log.list({ outcome: "pending" })) this.finish(r, "cancelled");
  }

  // The data and the extensions of a write's event, built once, at its first attempt.
  private built(o: Occurrence): { data: Buffer; extensions: Record<string, string> } | undefined {
    if (o.built === undefined) {
      try {
        o.built = this.build(o);
      } catch (e) {
        // A bug of ours: say so once; the write was answered long ago.
        process.stderr.write(`irv-emulator: the event of ${o.annotation.rpc} failed: ${String(e)}\n`);
        o.built = "failed";
      }
    }
    return o.built === "failed" ? undefined : o.built;
  }

  private build({ write, annotation, group }: Occurrence): {
    data: Buffer;
    extensions: Record<string, string>;
  } {
    const rule = bodyRule(annotation.body.typeName);
    const body = this.body(write, annotation);
    const redacted = body === undefined || rule.redact === undefined ? body : rule.redact(body);
    const data = Buffer.from(
      JSON.stringify({
        actor: { subject: actorSubject(write) },
        ...(redacted === undefined ? {} : { body: redacted }),
      }),
    );
    const extensions: Record<string, string> = {};
    for (const name of annotation.extensions) {
      if (name === "group") extensions.group = group;
      else if (name === "identityprovider") {
        const idp = identityProviderOf(rule.identityProvider, write.uid, body);
        if (idp !== undefined) extensions.identityprovider = idp;
      }
    }
    extensions.bodytype = annotation.body.typeName;
    extensions.audience = annotation.audience;
    return { data, extensions };
  }

  // The CloudEvent of one delivery: the write's event with its subscription's delivery extensions.
  private event(r: DeliveryRecord, built: { data: Buffer; extensions: Record<string, string> }): CloudEvent {
    return {
      id: r.eventId,
      source: this.o.source(),
      type: r.type,
      subject: r.subject,
      time: r.writeTime,
      extensions: {
        ...built.extensions,
        chainguarddev1delivery: "webhook",
        chainguarddev1subscription: r.subscription,
        chainguarddev1webhook: r.sink,
      },
      data: built.data,
    };
  }

  // The published message of the body, in its protojson form: the answer (decoded as the message, so
  // that only its fields go out), or the request of an rpc that answers Empty (a delete: its uid).
  private body(write: WriteNotice, annotation: WriteEvent): JsonObject | undefined {
    const json: JsonValue =
      annotation.bodyIsRequest || write.answer === undefined ? { uid: write.uid } : JSON.parse(write.answer);
    const message = fromJson(annotation.body, json, { registry: this.o.registry, ignoreUnknownFields: true });
    return toJson(annotation.body, message, { registry: this.o.registry }) as JsonObject;
  }

  // One attempt of a delivery; never rejects (the lane goes on whatever happens).
  private async attempt(p: Pending): Promise<AttemptResult> {
    const r = p.record;
    if (this.closed) return "skipped";
    if (!this.o.subscriptions.exists(r.subscription)) {
      this.finish(r, "cancelled");
      return "skipped";
    }
    const built = this.built(p.occurrence);
    if (built === undefined) {
      this.finish(r, "rejected");
      return "skipped";
    }
    // The sink rule of a create (sdk/schemas/subscription.ts), again here: a stored row may predate it.
    const problem = sinkProblem(r.sink);
    const started = this.o.clock();
    const attempt: DeliveryRecord["attempts"][number] = { time: formatTimestamp(started), durationMs: 0 };
    r.attempts.push(attempt);
    this.o.onCount?.("attempts");
    if (problem !== undefined) {
      attempt.error = `the sink ${problem}`;
      this.finish(r, "rejected");
      return "skipped";
    }
    let retry = false;
    p.pauseMs = undefined;
    try {
      const event = this.event(r, built);
      const token = await this.token(p, event.data);
      const res = await fetch(r.sink, {
        method: "POST",
        headers: { ...binaryModeHeaders(event), authorization: `Bearer ${token}` },
        body: event.data,
        redirect: "manual",
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.policy.timeoutMs)]),
      });
      attempt.status = res.status;
      // The sink dates Retry-After by its own clock and the lane waits in real time, so the pause is
      // counted from Date.now, not from the emulator's clock (which a test may move).
      p.pauseMs = requestedPauseMs(res.status, res.headers.get("retry-after"), Date.now());
      const text = await res.text();
      if (text !== "") attempt.response = text.slice(0, RESPONSE_EXCERPT);
      retry = isRetryableStatus(res.status);
    } catch (e) {
      attempt.error = failureOf(e, this.policy.timeoutMs);
      retry = true;
    }
    attempt.durationMs = this.o.clock() - started;
    if (this.closed) return "skipped";
    const status = attempt.status ?? 0;
    if (status >= 200 && status < 300) this.finish(r, "accepted");
    else if (!retry) this.finish(r, "rejected");
    else if (r.attempts.length > this.policy.retries) {
      this.finish(r, "failed");
      return "last";
    } else return "failed";
    return "answered";
  }

  // The lane of a sink: its deliveries in order, one probe at a time while it fails.
  private lane(sink: string): SinkLane<Pending> {
    let lane = this.lanes.get(sink);
    if (lane === undefined) {
      lane = new SinkLane<Pending>({
        concurrency: LANE_CONCURRENCY,
        backoffMs: (failures, p) => retryDelayMs(this.policy, failures, p.pauseMs),
        attempt: (p) => this.attempt(p).catch(() => "skipped" as const),
        maxQueued: MAX_QUEUED_PER_SINK,
        overflow: (p) => {
          p.record.attempts.push({
            time: formatTimestamp(this.o.clock()),
            durationMs: 0,
            error: `the sink has ${MAX_QUEUED_PER_SINK} deliveries waiting already`,
          });
          this.finish(p.record, "failed");
        },
      });
      this.lanes.set(sink, lane);
    }
    return lane;
  }

  // The token of the delivery: subject `webhook:<the subscription's group>`, audience `customer`,
  // and the data's digest, as the published receiver checks them.
  private async token(p: Pending, data: Buffer): Promise<string> {
    const now = this.o.clock();
    if (p.token === undefined || now - p.token.mintedAt > TOKEN_REUSE_MS) {
      const value = await this.o.mint({
        subject: `webhook:${p.subscriptionGroup}`,
        audience: "customer",
        ttlSeconds: TOKEN_TTL_SECONDS,
        claims: { webhook: { digest: dataDigest(data) } },
      });
      p.token = { value, mintedAt: now };
    }
    return p.token.value;
  }

  private finish(r: DeliveryRecord, outcome: DeliveryRecord["outcome"]): void {
    if (r.outcome !== "pending") return;
    r.outcome = outcome;
    this.o.onCount?.(outcome as Exclude<typeof outcome, "pending">);
  }
}

// The actor of the occurrence: the identity that wrote, or `admin` for the emulator's admin token,
// which stands for the organization's owner and is no identity (docs/contract-decisions.md).
function actorSubject(write: WriteNotice): string {
  const label = write.caller.label;
  return label.startsWith("identity ") ? label.slice("identity ".length) : label;
}

function identityProviderOf(
  from: ReturnType<typeof bodyRule>["identityProvider"],
  uid: string,
  body: JsonObject | undefined,
): string | undefined {
  if (from === undefined) return undefined;
  if (from === "parent") return uid.slice(0, Math.max(0, uid.lastIndexOf("/"))) || undefined;
  const value = body?.[from.field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function failureOf(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err.name === "TimeoutError") return `timed out after ${timeoutMs} ms`;
  if (err.name === "AbortError") return "aborted: the emulator closed";
  const code = err.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  return err.cause?.message ?? err.message;
}
