// The emulator's webhook deliveries (issue 46), engine by engine part against a real HTTP sink on
// loopback: the annotations come from the generated descriptors, an event is built as the published
// `*.event.go` files say (subject, group, redaction), carries a token of the emulator's own issuer
// that the published receiver's checks accept, is retried on 5xx, 429, timeouts and refused
// connections with one id, and is never sent during the write that caused it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, jwtVerify } from "jose";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import type { KeyStore } from "../../../../emulator/auth/index.js";
import { Caller, LocalIssuer, loadOrCreateSigningKey } from "../../../../emulator/auth/index.js";
import type { DeliveryPolicy, SubscriptionTarget } from "../../../../emulator/events/index.js";
import { Deliveries, dataDigest, EventAnnotations } from "../../../../emulator/events/index.js";
import { API_SERVICES, SERVICE_KINDS, WIRE_REGISTRY } from "../../../../emulator/grpc/index.js";
import type { WriteNotice } from "../../../../emulator/resources/index.js";

const org = "0123456789abcdef0123456789abcdef01234567";
const team = `${org}/00000000000000aa`;
const sibling = `${org}/00000000000000bb`;
const issuerUrl = "http://127.0.0.1:1/oidc";
const annotations = EventAnnotations.read(API_SERVICES, SERVICE_KINDS);
let issuer: LocalIssuer;
let jwks: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const meta = new Map<string, string>();
  const store: KeyStore = { getMeta: (k) => meta.get(k), setMeta: (k, v) => void meta.set(k, v) };
  issuer = new LocalIssuer(await loadOrCreateSigningKey(store, "issuer"), issuerUrl, "aud", Date.now);
  jwks = createLocalJWKSet(issuer.jwks() as never);
});

interface Received {
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A sink on loopback answering each request with the next of `answers` (the last one repeats). */
async function sink(answers: ((res: ServerResponse) => void)[]) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)];
      answer?.(res);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return {
    url,
    received,
    async until(n: number) {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    },
  };
}

const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

/** A loopback URL on which nothing listens (a port just freed): connections are refused. */
async function deadSink(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

const status =
  (code: number, body = "") =>
  (res: ServerResponse) =>
    res.writeHead(code).end(body);

function engine(targets: SubscriptionTarget[], policy: Partial<DeliveryPolicy> = {}) {
  const live = new Set(targets.map((t) => t.uid));
  const d = new Deliveries({
    annotations,
    subscriptions: {
      covering: (group) =>
        targets.filter((t) => live.has(t.uid) && (group === t.group || group.startsWith(`${t.group}/`))),
      exists: (uid) => live.has(uid),
    },
    registry: WIRE_REGISTRY,
    source: () => "http://127.0.0.1:1",
    mint: (r) => issuer.mint(r),
    clock: Date.now,
    policy: { backoffMs: 1, ...policy },
  });
  closers.push(() => d.close());
  return { d, live };
}

async function settled(d: Deliveries) {
  while (d.log.list({ outcome: "pending" }).length > 0) await new Promise((r) => setTimeout(r, 5));
}

const admin = new Caller("admin", org, []);
const group = (uid: string, description = ""): WriteNotice => ({
  kind: "groups",
  verb: "create",
  caller: admin,
  uid,
  scope: uid.slice(0, uid.lastIndexOf("/")),
  answer: JSON.stringify({ uid, name: "team", description, verified: false, resourceLimits: {} }),
});

describe("the annotations", () => {
  test("are read from the descriptors: every IAM write of the contract has a customer event, with the published type", () => {
    const iam = annotations.all().filter((a) => a.rpc.startsWith("chainguard.platform.iam."));
    expect(iam.length).toBeGreaterThanOrEqual(20);
    expect(iam.every((a) => a.rpc.includes(".v2beta1."))).toBe(true);
    expect(iam.every((a) => a.audience === "customer" && a.extensions.includes("group"))).toBe(true);
    expect(annotations.get("roleBindings", "create")?.type).toBe(
      "dev.chainguard.api.iam.rolebindings.created.v1",
    );
    expect(annotations.get("groups", "delete")?.body.typeName).toBe(
      "chainguard.platform.iam.v2beta1.DeleteGroupRequest",
    );
    expect(annotations.get("identities", "update")?.body.typeName).toBe(
      "chainguard.platform.iam.v2beta1.Identity",
    );
  });

  test("cover every annotated rpc, not only the kinds' own Create, Update and Delete: the readme write and the mappings' batch delete, whose bodies are their answers", () => {
    const readme = annotations.get("repos", "update", "UpdateRepoReadme");
    expect(readme).toMatchObject({
      type: "dev.chainguard.api.platform.registry.repo.updated.v1",
      audience: "customer",
      bodyIsRequest: false,
    });
    expect(readme?.body.typeName).toBe("chainguard.platform.registry.v2beta1.RepoReadme");
    // The repo's own update is another rpc of the same verb.
    expect(annotations.get("repos", "update")?.body.typeName).toBe(
      "chainguard.platform.registry.v2beta1.Repo",
    );
    const batch = annotations.get(
      "externalGroupRoleMappings",
      "delete",
      "BatchDeleteExternalGroupRoleMappings",
    );
    expect(batch?.type).toBe("dev.chainguard.api.iam.external_group_role_mappings.deleted.batch.v1");
    expect(batch?.extensions).toEqual(["group", "identityprovider"]);
    expect(batch?.body.typeName).toBe(
      "chainguard.platform.iam.v2beta1.BatchDeleteExternalGroupRoleMappingsResponse",
    );
    expect(annotations.get("groups", "update", "UpdateGroupMembers")).toBeUndefined();
  });
});

describe("a delivery", () => {
  test("is a binary-mode CloudEvent whose token the published receiver's checks accept", async () => {
    const s = await sink([status(200)]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }]);
    const child = `${team}/0000000000000001`;
    d.written(group(child, "made by a test"));
    await s.until(1);
    const [got] = s.received as [Received];
    expect(got.headers).toMatchObject({
      "content-type": "application/json",
      "ce-specversion": "1.0",
      "ce-type": "dev.chainguard.api.iam.group.created.v1",
      "ce-subject": child,
      "ce-group": child,
      "ce-bodytype": "chainguard.platform.iam.v2beta1.Group",
      "ce-audience": "customer",
      "ce-source": "http://127.0.0.1:1",
    });
    expect(JSON.parse(got.body.toString())).toEqual({
      actor: { subject: "admin" },
      body: { uid: child, name: "team", description: "made by a test" },
    });
    const token = String(got.headers.authorization).replace(/^Bearer /, "");
    const { payload } = await jwtVerify(token, jwks, { issuer: issuerUrl, audience: "customer" });
    expect(payload.sub).toBe(`webhook:${org}`);
    expect(payload.webhook).toEqual({ digest: dataDigest(got.body) });
    await settled(d);
    expect(d.log.list()).toMatchObject([{ outcome: "accepted", attempts: [{ status: 200 }] }]);
  });

  test("is not sent while the write is being answered: nothing reaches the sink before the write's turn ends", async () => {
    const s = await sink([status(200)]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }]);
    d.written(group(`${team}/0000000000000002`));
    // Still the write's turn: the delivery is queued, nothing is built or sent.
    expect(d.log.list()).toMatchObject([{ outcome: "pending", attempts: [] }]);
    expect(s.received).toHaveLength(0);
    await s.until(1);
  });

  test("goes to subscriptions on the event's group and above it, never to a sibling's", async () => {
    const s = await sink([status(200)]);
    const { d } = engine([
      { uid: `${org}/a`, group: org, sink: s.url },
      { uid: `${team}/b`, group: team, sink: s.url },
      { uid: `${sibling}/c`, group: sibling, sink: s.url },
    ]);
    d.written(group(`${team}/0000000000000003`));
    await settled(d);
    expect(d.log.list().map((r) => r.subscription)).toEqual([`${org}/a`, `${team}/b`]);
  });

  test("after 3 × 503 then 200 is one accepted delivery, every attempt with the same CloudEvent id", async () => {
    const s = await sink([status(503), status(503), status(503), status(200)]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }]);
    d.written(group(`${team}/0000000000000004`));
    await s.until(4);
    await settled(d);
    expect(new Set(s.received.map((r) => r.headers["ce-id"])).size).toBe(1);
    const [record] = d.log.list();
    expect(record?.outcome).toBe("accepted");
    expect(record?.attempts.map((a) => a.status)).toEqual([503, 503, 503, 200]);
  });

  test("is retried on 429 and refused connections, not on another 4xx, and gives up after the retries", async () => {
    const s = await sink([status(429), status(403, "token for another group")]);
    const dead = await deadSink();
    const { d } = engine(
      [
        { uid: `${org}/live`, group: org, sink: s.url },
        { uid: `${org}/dead`, group: org, sink: dead },
      ],
      { retries: 2 },
    );
    d.written(group(`${team}/0000000000000005`));
    await settled(d);
    const [live, gone] = d.log.list();
    expect(live).toMatchObject({ outcome: "rejected", attempts: [{ status: 429 }, { status: 403 }] });
    expect(live?.attempts[1]?.response).toBe("token for another group");
    expect(gone?.outcome).toBe("failed");
    expect(gone?.attempts.map((a) => a.error)).toEqual(Array(3).fill("connection refused"));
  });

  test("answered 429 with Retry-After waits what it asks for before the next attempt, at most the cap", async () => {
    const s = await sink([
      (res) => res.writeHead(429, { "retry-after": "3600" }).end(),
      (res) => res.writeHead(503, { "retry-after": "0" }).end(),
      status(200),
    ]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }], { maxBackoffMs: 300 });
    d.written(group(`${team}/000000000000000a`));
    await settled(d);
    const [record] = d.log.list();
    expect(record?.outcome).toBe("accepted");
    const started = record?.attempts.map((a) => Date.parse(a.time)) ?? [];
    // An hour asked for: the cap (300 ms), not the 1 ms backoff. Timers never fire early, but the
    // attempt's recorded start is the clock's millisecond, hence the slack of a few.
    expect((started[1] ?? 0) - (started[0] ?? 0)).toBeGreaterThanOrEqual(295);
  });

  test("is bounded by the timeout per attempt, and a timeout is retried", async () => {
    const s = await sink([() => {}, status(204)]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }], { timeoutMs: 100 });
    d.written(group(`${team}/0000000000000006`));
    await settled(d);
    expect(d.log.list()[0]).toMatchObject({
      outcome: "accepted",
      attempts: [{ error: "timed out after 100 ms" }, { status: 204 }],
    });
  });

  test("to a dead sink is one probe at a time once it failed: 50 writes make no more attempts than the first round's", async () => {
    const dead = await deadSink();
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: dead }], { backoffMs: 60_000 });
    for (let i = 0; i < 50; i++) d.written(group(`${team}/1${String(i).padStart(15, "0")}`));
    const attempted = () => d.log.list().filter((r) => r.attempts.length > 0);
    // The first round: as many attempts as the lane runs at once, all refused.
    while (attempted().filter((r) => r.attempts[0]?.error !== undefined).length < 8)
      await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100));
    expect(attempted()).toHaveLength(8);
    expect(d.log.list({ outcome: "pending" })).toHaveLength(50);
  });

  test("does not follow a redirect", async () => {
    const target = await sink([status(200)]);
    const s = await sink([(res) => res.writeHead(307, { location: target.url }).end()]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }]);
    d.written(group(`${team}/0000000000000007`));
    await settled(d);
    expect(d.log.list()[0]).toMatchObject({ outcome: "rejected", attempts: [{ status: 307 }] });
    expect(target.received).toHaveLength(0);
  });

  test("stops once its subscription is deleted: no attempt after that", async () => {
    const s = await sink([status(503)]);
    const { d, live } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }], { backoffMs: 200 });
    d.written(group(`${team}/0000000000000008`));
    await s.until(1);
    live.delete(`${org}/sub`);
    await settled(d);
    expect(d.log.list()[0]?.outcome).toBe("cancelled");
    expect(s.received).toHaveLength(1);
  });

  test("to a plain-http sink off loopback is refused without a request", async () => {
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: "http://example.com/hook" }]);
    d.written(group(`${team}/0000000000000009`));
    await settled(d);
    expect(d.log.list()[0]).toMatchObject({
      outcome: "rejected",
      attempts: [{ error: "the sink must use the https scheme (http only on a loopback host)" }],
    });
  });
});

describe("an rpc annotated INTERNAL", () => {
  test("delivers nothing (the published UpdateIdentityMetadata's event never leaves the platform)", async () => {
    const s = await sink([status(200)]);
    const updateIdentity = annotations.get("identities", "update");
    if (updateIdentity === undefined) throw new Error("UpdateIdentity is annotated");
    const internal = { get: () => ({ ...updateIdentity, audience: "internal" }) };
    const d = new Deliveries({
      annotations: internal as unknown as EventAnnotations,
      subscriptions: {
        covering: () => [{ uid: `${org}/sub`, group: org, sink: s.url }],
        exists: () => true,
      },
      registry: WIRE_REGISTRY,
      source: () => "http://127.0.0.1:1",
      mint: (r) => issuer.mint(r),
      clock: Date.now,
    });
    closers.push(() => d.close());
    const uid = `${team}/00000000000000ab`;
    d.written({
      kind: "identities",
      verb: "update",
      rpc: "UpdateIdentityMetadata",
      caller: admin,
      uid,
      scope: team,
      answer: JSON.stringify({ uid }),
    });
    // A delivery is queued during the write's turn and starts on the next: neither happened.
    expect(d.log.list()).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(s.received).toEqual([]);
  });
});

describe("the body", () => {
  async function bodyOf(write: WriteNotice) {
    const s = await sink([status(200)]);
    const { d } = engine([{ uid: `${org}/sub`, group: org, sink: s.url }]);
    d.written(write);
    await s.until(1);
    const got = s.received[0] as Received;
    return { headers: got.headers, data: JSON.parse(got.body.toString()) };
  }
  const identity = new Caller(`identity ${team}/00000000000000cc`, org, []);

  test("of an invite keeps only its uid and expiration: the code is never sent", async () => {
    const uid = `${team}/00000000000000dd`;
    const { data, headers } = await bodyOf({
      kind: "groupInvites",
      verb: "create",
      caller: identity,
      uid,
      scope: team,
      answer: JSON.stringify({
        uid,
        code: "secret-code",
        email: "a@b.c",
        expirationTime: "2026-12-01T00:00:00Z",
      }),
    });
    expect(data).toEqual({
      actor: { subject: `${team}/00000000000000cc` },
      body: { uid, expirationTime: "2026-12-01T00:00:00Z" },
    });
    expect(headers["ce-group"]).toBe(team);
  });

  test("of an identity provider leaves out the client secret and the timestamps", async () => {
    const uid = `${team}/00000000000000ee`;
    const { data } = await bodyOf({
      kind: "identityProviders",
      verb: "update",
      caller: admin,
      uid,
      scope: team,
      answer: JSON.stringify({
        uid,
        name: "okta",
        createTime: "2026-11-01T00:00:00Z",
        updateTime: "2026-11-02T00:00:00Z",
        oidc: {
          issuer: "https://idp.example",
          clientId: "c",
          clientSecret: "s3cret",
          additionalScopes: ["email"],
        },
      }),
    });
    expect(data.body).toEqual({
      uid,
      name: "okta",
      oidc: { issuer: "https://idp.example", clientId: "c", additionalScopes: ["email"] },
    });
  });

  test("of a readme write is the readme; of a mappings batch delete, its response, about the identity provider", async () => {
    const repo = `${team}/00000000000000a1`;
    const readme = await bodyOf({
      kind: "repos",
      verb: "update",
      rpc: "UpdateRepoReadme",
      caller: admin,
      uid: repo,
      scope: team,
      answer: JSON.stringify({ uid: repo, content: "# app" }),
    });
    expect(readme.data.body).toEqual({ uid: repo, content: "# app" });
    expect(readme.headers).toMatchObject({
      "ce-type": "dev.chainguard.api.platform.registry.repo.updated.v1",
      "ce-subject": repo,
      "ce-group": team,
      "ce-bodytype": "chainguard.platform.registry.v2beta1.RepoReadme",
    });
    const idp = `${team}/00000000000000a2`;
    const mapping = {
      uid: `${idp}/00000000000000a3`,
      identityProviderUid: idp,
      externalGroupId: "eng",
      roleUid: "r",
      scope: org,
    };
    const batch = await bodyOf({
      kind: "externalGroupRoleMappings",
      verb: "delete",
      rpc: "BatchDeleteExternalGroupRoleMappings",
      caller: admin,
      uid: idp,
      scope: team,
      answer: JSON.stringify({ parent: idp, externalGroupRoleMappings: [mapping] }),
    });
    expect(batch.data.body).toEqual({ parent: idp, externalGroupRoleMappings: [mapping] });
    expect(batch.headers).toMatchObject({
      "ce-subject": idp,
      "ce-group": org,
      "ce-identityprovider": idp,
      "ce-bodytype": "chainguard.platform.iam.v2beta1.BatchDeleteExternalGroupRoleMappingsResponse",
    });
  });

  test("of a delete is the request; an account association's delete sends none", async () => {
    const uid = `${team}/00000000000000ff`;
    const del = await bodyOf({
      kind: "identities",
      verb: "delete",
      caller: admin,
      uid,
      scope: team,
      answer: undefined,
    });
    expect(del.data.body).toEqual({ uid });
    expect(del.headers["ce-bodytype"]).toBe("chainguard.platform.iam.v2beta1.DeleteIdentityRequest");
    const aa = await bodyOf({
      kind: "accountAssociations",
      verb: "delete",
      caller: admin,
      uid: team,
      scope: team,
      answer: undefined,
    });
    expect(aa.data).toEqual({ actor: { subject: "admin" } });
    expect(aa.headers["ce-group"]).toBe(team);
  });

  test("of a custom role names the group the role was made in (its uid is flat)", async () => {
    const uid = "0123456789abcdef0123";
    const { headers } = await bodyOf({
      kind: "roles",
      verb: "delete",
      caller: admin,
      uid,
      scope: team,
      answer: undefined,
    });
    expect(headers["ce-group"]).toBe(team);
    expect(headers["ce-subject"]).toBe(uid);
  });
});
