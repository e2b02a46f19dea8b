import type { IncomingMessage, Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One CloudEvent a {@link WebhookSink} received, as the HTTP binding carried it (binary or
 * structured mode).
 *
 * @example
 * const event: ReceivedEvent = await sink.waitFor("dev.chainguard.api.iam.group.created.v1");
 * event.data.body?.uid;
 */
export interface ReceivedEvent {
  id: string;
  type: string;
  subject: string;
  source: string;
  time: string | undefined;
  /** The extension attributes: `group`, `bodytype`, `audience`, … */
  extensions: Record<string, string>;
  /** The data: `{"actor": {"subject"}, "body"}` (no `body` when the published message redacts it all). */
  data: { actor?: { subject: string }; body?: Record<string, unknown> };
  /** The data's bytes, as the token's `webhook.digest` covers them. */
  rawData: Buffer;
  /** The `Authorization` header: `Bearer <token of the emulator's issuer>`. */
  authorization: string | undefined;
}

/**
 * A local receiver subscribed to an emulator's events (see {@link startWebhookSink}).
 *
 * @example
 * const sink = await startWebhookSink(emu);
 * // … a write …
 * const created = await sink.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: groupUid });
 * await sink.close();
 */
export interface WebhookSink {
  /** Where it listens (`http://127.0.0.1:<port>/`). */
  url: string;
  /** The uid of its subscription. */
  subscriptionUid: string;
  /** Every event received so far, in arrival order. */
  readonly events: readonly ReceivedEvent[];
  /**
   * The first event of `type` (and `subject`, when given) received, waiting for it at most
   * `timeoutMs` (default 10 s); rejects naming what did arrive.
   */
  waitFor(type: string, options?: { subject?: string; timeoutMs?: number }): Promise<ReceivedEvent>;
  /** Deletes the subscription (when the emulator still answers) and stops listening. */
  close(): Promise<void>;
}

/**
 * Where to subscribe, and how to answer.
 *
 * @example
 * await startWebhookSink(emu, { group: teamUid, status: 503 });
 */
export interface WebhookSinkOptions {
  /** The group to subscribe to (its events and those of every group below). Default: the organization. */
  group?: string | undefined;
  /** The status every delivery is answered with. Default 200. */
  status?: number | undefined;
}

/**
 * Starts a receiver on loopback and subscribes it to the emulator's events
 * (`POST /events/v2beta1/subscriptions/<group> {"sink"}` with the admin token), so that a test can
 * wait for the webhook of a write. It records what arrives without checking the token: check that
 * with your own receiver (docs/testing.md shows one written with the published Go receiver).
 *
 * @example
 * const emu = await startEmulator();
 * const sink = await startWebhookSink(emu);
 * await stack.up();
 * const event = await sink.waitFor("dev.chainguard.api.iam.group.created.v1");
 * expect(event.extensions.bodytype).toBe("chainguard.platform.iam.v2beta1.Group");
 * await sink.close();
 */
export async function startWebhookSink(
  emu: { baseUrl: string; adminToken: string; orgUid: string },
  options: WebhookSinkOptions = {},
): Promise<WebhookSink> {
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  const status = options.status ?? 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const event = parseEvent(req, Buffer.concat(chunks));
      if (event === undefined) {
        res.writeHead(400).end("not a CloudEvent");
        return;
      }
      events.push(event);
      res.writeHead(status).end();
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const group = options.group ?? emu.orgUid;
  const auth = { authorization: `Bearer ${emu.adminToken}` };
  let subscriptionUid: string;
  try {
    const res = await fetch(`${emu.baseUrl}/events/v2beta1/subscriptions/${group}`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ sink: url }),
    });
    const body = (await res.json()) as { uid?: string; message?: string };
    if (!res.ok || body.uid === undefined) {
      throw new Error(`subscribing ${url} to group ${group}: HTTP ${res.status}: ${body.message ?? ""}`);
    }
    subscriptionUid = body.uid;
  } catch (e) {
    await closeServer(server);
    throw e;
  }

  const find = (type: string, subject: string | undefined) =>
    events.find((e) => e.type === type && (subject === undefined || e.subject === subject));
  return {
    url,
    subscriptionUid,
    events,
    waitFor(type, { subject, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = find(type, subject);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const got = events.map((e) => `${e.type} ${e.subject}`).join(", ") || "nothing";
          reject(
            new Error(
              `no ${type}${subject === undefined ? "" : ` for ${subject}`} within ${timeoutMs} ms; received: ${got}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      await fetch(`${emu.baseUrl}/events/v2beta1/subscriptions/${subscriptionUid}`, {
        method: "DELETE",
        headers: auth,
      }).catch(() => undefined);
      await closeServer(server);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

// The CloudEvent of a request: structured mode (`application/cloudevents+json`, the event as one JSON
// document) or binary mode (`ce-*` headers, percent-encoded, and the data as the body).
function parseEvent(req: IncomingMessage, body: Buffer): ReceivedEvent | undefined {
  const authorization = req.headers.authorization;
  if (String(req.headers["content-type"]).startsWith("application/cloudevents+json")) {
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    const { specversion, id, type, subject, source, time, data, datacontenttype, ...rest } = doc;
    if (typeof id !== "string" || typeof type !== "string") return undefined;
    const extensions = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
    const rawData = Buffer.from(JSON.stringify(data ?? null));
    return {
      id,
      type,
      subject: String(subject ?? ""),
      source: String(source ?? ""),
      time: time === undefined ? undefined : String(time),
      extensions,
      data: (data ?? {}) as ReceivedEvent["data"],
      rawData,
      authorization,
    };
  }
  const attr = (name: string) => {
    const v = req.headers[`ce-${name}`];
    return typeof v === "string" ? decodeURIComponent(v) : undefined;
  };
  const id = attr("id");
  const type = attr("type");
  if (id === undefined || type === undefined) return undefined;
  const context = new Set(["specversion", "id", "type", "subject", "source", "time", "dataschema"]);
  const extensions: Record<string, string> = {};
  for (const [header, value] of Object.entries(req.headers)) {
    const name = header.slice(3);
    if (header.startsWith("ce-") && !context.has(name) && typeof value === "string")
      extensions[name] = decodeURIComponent(value);
  }
  let data: ReceivedEvent["data"] = {};
  try {
    data = JSON.parse(body.toString("utf8")) as ReceivedEvent["data"];
  } catch {
    // Not JSON: rawData keeps it.
  }
  return {
    id,
    type,
    subject: attr("subject") ?? "",
    source: attr("source") ?? "",
    time: attr("time"),
    extensions,
    data,
    rawData: body,
    authorization,
  };
}
