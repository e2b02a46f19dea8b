// Webhook deliveries over the wire (issue 46): a subscription's sink receives the event of every write
// that the published definitions annotate with a CUSTOMER event — on either transport — with the
// body decodable as the annotated message; other writes deliver nothing; a sibling group's
// subscription receives nothing; a flaky sink gets one delivery with one id; a dead or stuck sink
// never holds a write up; a deleted subscription receives nothing more.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fromJson } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EventAnnotations } from "../../../emulator/events/index.js";
import { GroupsService } from "../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import { API_SERVICES, SERVICE_KINDS, WIRE_REGISTRY } from "../../../emulator/grpc/index.js";
import type { ReceivedEvent, WebhookSink } from "../../../emulator/index.js";
import { startWebhookSink } from "../../../emulator/index.js";
import { grpcClient } from "./grpc/grpc-client.js";
import type { TestEmulator } from "./support.js";
import { startTestEmulator } from "./support.js";

const annotations = EventAnnotations.read(API_SERVICES, SERVICE_KINDS);

let emu: TestEmulator;
const sinks: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  for (const s of sinks.splice(0)) await s.close();
  await emu.close();
});

async function subscribe(group = emu.orgUid): Promise<WebhookSink> {
  const sink = await startWebhookSink(emu, { group });
  sinks.push(sink);
  return sink;
}

/**
 * A raw sink answering each event of `type` with the next of `answers` (the last repeats), and any
 * other event (its own subscription's creation) 200.
 */
async function rawSink(
  answers: ((res: ServerResponse) => void)[],
  type = "dev.chainguard.api.iam.group.updated.v1",
) {
  const received: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    req.resume();
    if (req.headers["ce-type"] !== type) {
      res.writeHead(200).end();
      return;
    }
    received.push(req);
    answers[Math.min(received.length - 1, answers.length - 1)]?.(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  sinks.push({
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  });
  return { url, received };
}

/** A loopback URL on which nothing listens: connections are refused. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/`;
}

const createSubscription = (group: string, sink: string) =>
  emu.ok<{ uid: string }>("POST", `/events/v2beta1/subscriptions/${group}`, { body: { sink } });

/** Waits until the emulator has finished every delivery (none pending). */
async function settled(): Promise<void> {
  while (emu.deliveries({ outcome: "pending" }).length > 0) await new Promise((r) => setTimeout(r, 10));
}

/** One write of every annotated kind and verb, as an admin over HTTP: each kind's create, update, delete. */
async function everyWrite(parent: string): Promise<void> {
  const viewer = await emu.roleUid("viewer");
  const g = await emu.group("every-write", parent);
  await emu.ok("PATCH", `/iam/v2beta1/groups/${g.uid}`, { body: { description: "d" } });
  const id = await emu.identity(g.uid, "ci");
  await emu.ok("PATCH", `/iam/v2beta1/identities/${id.uid}`, { body: { description: "d" } });
  const role = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roles/${g.uid}`, {
    body: { name: "lister", capabilities: ["CAP_IAM_GROUPS_LIST"] },
  });
  await emu.ok("PATCH", `/iam/v2beta1/roles/${role.uid}`, { body: { description: "d" } });
  const binding = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/roleBindings/${g.uid}`, {
    body: { identityUid: id.uid, roleUid: viewer },
  });
  await emu.ok("PATCH", `/iam/v2beta1/roleBindings/${binding.uid}`, { body: { roleUid: role.uid } });
  await emu.ok("DELETE", `/iam/v2beta1/roleBindings/${binding.uid}`);
  await emu.ok("DELETE", `/iam/v2beta1/roles/${role.uid}`);
  await emu.ok("DELETE", `/iam/v2beta1/identities/${id.uid}`);
  const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${g.uid}`, {
    body: {
      name: "okta",
      defaultRole: viewer,
      oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
    },
  });
  await emu.ok("PATCH", `/iam/v2beta1/identityProviders/${idp.uid}`, { body: { description: "d" } });
  await emu.ok("DELETE", `/iam/v2beta1/identityProviders/${idp.uid}`);
  await emu.ok("POST", `/iam/v2beta1/accountAssociations/${g.uid}`, {
    body: { name: "aws", amazon: { account: "123456789012" } },
  });
  await emu.ok("PATCH", `/iam/v2beta1/accountAssociations/${g.uid}`, { body: { description: "d" } });
  await emu.ok("DELETE", `/iam/v2beta1/accountAssociations/${g.uid}`);
  const invite = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/groupInvites/${g.uid}`, {
    body: { roleUid: viewer, ttl: "86400s" },
  });
  await emu.ok("DELETE", `/iam/v2beta1/groupInvites/${invite.uid}`);
  const sub = await createSubscription(g.uid, "https://hooks.example.com/irv");
  await emu.ok("DELETE", `/events/v2beta1/subscriptions/${sub.uid}`);
  await emu.ok("DELETE", `/iam/v2beta1/groups/${g.uid}`);
}

describe("a subscription", () => {
  test("receives the event of every CUSTOMER annotation, its body decodable as the annotated message", async () => {
    const top = await emu.group("events-top");
    const sink = await subscribe(top.uid);
    await everyWrite(top.uid);
    const customer = annotations.all().filter((a) => a.audience === "customer");
    // The IAM kinds and subscriptions. Not yet driven here: the registry kinds and the external
    // group role mappings, whose events name the organization's root (their `*.event.go`), so
    // that only an organization-level subscription receives them.
    const served = customer.filter(
      (a) => !/\.(Repos|Tags|Overlays|OverlayBindings|ExternalGroupRoleMappings)Service\./.test(a.rpc),
    );
    for (const a of served) {
      const event = await sink.waitFor(a.type);
      expect(event.extensions).toMatchObject({ bodytype: a.body.typeName, audience: "customer" });
      expect(event.extensions.group).toMatch(new RegExp(`^${top.uid}`));
      if (event.data.body !== undefined) {
        const message = WIRE_REGISTRY.getMessage(event.extensions.bodytype ?? "");
        expect(message?.typeName).toBe(a.body.typeName);
        // protojson of the published message: decodes strictly (an unknown field would throw).
        expect(() => fromJson(a.body, event.data.body as never, { registry: WIRE_REGISTRY })).not.toThrow();
      }
    }
    // DeleteAccountAssociationRequest redacts to nothing, as published: no body at all.
    const aaDeleted = await sink.waitFor("dev.chainguard.api.iam.account_associations.deleted.v1");
    expect(aaDeleted.data).toEqual({ actor: { subject: "admin" } });
  });

  test("receives the writes of gRPC calls too", async () => {
    const top = await emu.group("events-grpc");
    const sink = await subscribe(top.uid);
    const groups = grpcClient(GroupsService, emu.baseUrl, emu.adminToken);
    const made = await groups.createGroup({
      parent: top.uid,
      group: { name: "over-grpc", description: "g" },
    });
    const event = await sink.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: made.uid });
    expect(event.data.body).toMatchObject({ uid: made.uid, name: "over-grpc", description: "g" });
    expect(event.extensions.group).toBe(made.uid);
  });

  test("on a sibling group receives nothing of its neighbour's writes", async () => {
    const left = await emu.group("left");
    const right = await emu.group("right");
    const leftSink = await subscribe(left.uid);
    const rightSink = await subscribe(right.uid);
    const child = await emu.group("child", left.uid);
    await leftSink.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: child.uid });
    await settled();
    expect(rightSink.events.filter((e) => e.subject === child.uid)).toEqual([]);
    expect(emu.deliveries({ subscription: rightSink.subscriptionUid }).map((d) => d.subject)).not.toContain(
      child.uid,
    );
  });

  test("receives nothing of writes without a CUSTOMER annotation: control-API seeds, fixtures, token exchanges", async () => {
    const top = await emu.group("quiet");
    const id = await emu.identity(top.uid, "exchanger", "quiet-subject");
    const sink = await subscribe(top.uid);
    // Its own subscription's creation is the first event it gets.
    await sink.waitFor("dev.chainguard.api.events.subscription.created.v1", {
      subject: sink.subscriptionUid,
    });
    await settled();
    const before = emu.stats().deliveries.queued;
    await emu.ok("POST", "/_emulator/repos", { body: { parentUid: top.uid, name: "seeded" } });
    await emu.ok("POST", "/_emulator/fixtures", { body: { groups: [{ name: "from-fixtures" }] } });
    const exchanged = await emu.exchange(await emu.workloadToken("quiet-subject"), id.uid);
    expect(exchanged.status).toBe(200);
    expect(emu.stats().deliveries.queued).toBe(before);
    // A write that does deliver, after them: it is the first thing the sink gets.
    await emu.ok("PATCH", `/iam/v2beta1/groups/${top.uid}`, { body: { description: "marker" } });
    const marker = await sink.waitFor("dev.chainguard.api.iam.group.updated.v1");
    expect(sink.events.map((e) => e.type)).toEqual([
      "dev.chainguard.api.events.subscription.created.v1",
      marker.type,
    ]);
  });

  test("deleted, receives nothing more", async () => {
    const top = await emu.group("unsubscribed");
    const sink = await subscribe(top.uid);
    const witness = await subscribe(top.uid);
    const first = await emu.group("first", top.uid);
    await sink.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: first.uid });
    await emu.ok("DELETE", `/events/v2beta1/subscriptions/${sink.subscriptionUid}`);
    const second = await emu.group("second", top.uid);
    await witness.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: second.uid });
    await settled();
    expect(sink.events.map((e: ReceivedEvent) => e.subject)).not.toContain(second.uid);
    expect(emu.deliveries({ subscription: sink.subscriptionUid }).map((d) => d.subject)).not.toContain(
      second.uid,
    );
  });
});

describe("a delivery", () => {
  test("answered 503 three times, then 200, is one accepted delivery with one CloudEvent id", async () => {
    const top = await emu.group("flaky");
    const fail = (res: ServerResponse) => res.writeHead(503).end();
    const sink = await rawSink([fail, fail, fail, (res) => res.writeHead(200).end()]);
    const sub = await createSubscription(top.uid, sink.url);
    await emu.ok("PATCH", `/iam/v2beta1/groups/${top.uid}`, { body: { description: "flaky" } });
    await settled();
    const mine = emu.deliveries({ subscription: sub.uid, type: "dev.chainguard.api.iam.group.updated.v1" });
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ outcome: "accepted" });
    expect(mine[0]?.attempts.map((a) => a.status)).toEqual([503, 503, 503, 200]);
    expect(sink.received).toHaveLength(4);
    expect(new Set(sink.received.map((r) => r.headers["ce-id"]))).toEqual(new Set([mine[0]?.eventId]));
  });

  test("to a dead sink, or one that never answers, does not hold a write up: every write answers with its delivery still pending", async () => {
    const top = await emu.group("slow-sinks");
    const stuck = await rawSink([() => {}], "dev.chainguard.api.iam.group.created.v1");
    for (let i = 0; i < 4; i++) await createSubscription(top.uid, await deadUrl());
    const held = await createSubscription(top.uid, stuck.url);
    for (let i = 0; i < 5; i++) {
      const g = await emu.group(`w${i}`, top.uid);
      // The write has answered; its deliveries are queued, the stuck sink's not answered.
      const pending = emu.deliveries({ subscription: held.uid }).filter((d) => d.subject === g.uid);
      expect(pending).toMatchObject([{ outcome: "pending" }]);
    }
    // The stuck sink holds requests open while the writes went on answering.
    while (stuck.received.length < 1) await new Promise((r) => setTimeout(r, 10));
    const writes = emu.deliveries({
      subscription: held.uid,
      type: "dev.chainguard.api.iam.group.created.v1",
    });
    expect(writes).toHaveLength(5);
    expect(writes.every((d) => d.outcome === "pending")).toBe(true);
  });
});
