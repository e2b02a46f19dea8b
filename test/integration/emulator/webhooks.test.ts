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
import { ExternalGroupRoleMappingsService } from "../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/external_group_role_mappings_pb.js";
import { GroupsService } from "../../../emulator/grpc/gen/chainguard/platform/iam/v2beta1/groups_pb.js";
import { ReposService } from "../../../emulator/grpc/gen/chainguard/platform/registry/v2beta1/repos_pb.js";
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

/** Waits until `on` (this file's emulator unless given) has finished every delivery (none pending). */
async function settled(on: TestEmulator = emu): Promise<void> {
  while (on.deliveries({ outcome: "pending" }).length > 0) await new Promise((r) => setTimeout(r, 10));
}

/** What one write's event must carry: its subject, its `group` and, where annotated, its identity provider. */
interface Expected {
  subject: string;
  group: string;
  identityprovider?: string;
}

/**
 * One write of every annotated rpc, as an admin over HTTP: each kind's create, update and delete, the
 * repo's readme and the mappings' batch delete. Answers what each rpc's event must say, by the rpc's
 * method name (the published `*.event.go` files: most kinds name their parent group, the registry's
 * tags, overlays and bindings and the mappings the organization's root).
 */
async function everyWrite(parent: string): Promise<Map<string, Expected>> {
  const expected = new Map<string, Expected>();
  const org = emu.orgUid;
  const under = (rpc: string, subject: string, group = parent, identityprovider?: string) =>
    expected.set(rpc, { subject, group, ...(identityprovider === undefined ? {} : { identityprovider }) });
  const viewer = await emu.roleUid("viewer");
  const g = await emu.group("every-write", parent);
  under("CreateGroup", g.uid, g.uid);
  await emu.ok("PATCH", `/iam/v2beta1/groups/${g.uid}`, { body: { description: "d" } });
  under("UpdateGroup", g.uid, g.uid);
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
  for (const verb of ["Create", "Update", "Delete"]) {
    under(`${verb}Identity`, id.uid, g.uid);
    under(`${verb}Role`, role.uid, g.uid);
    under(`${verb}RoleBinding`, binding.uid, g.uid);
  }
  const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${g.uid}`, {
    body: {
      name: "okta",
      defaultRole: viewer,
      oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
    },
  });
  await emu.ok("PATCH", `/iam/v2beta1/identityProviders/${idp.uid}`, { body: { description: "d" } });
  const mapping = (externalGroupId: string) =>
    emu.ok<{ uid: string }>("POST", `/iam/v2beta1/externalGroupRoleMappings/${idp.uid}`, {
      body: { externalGroupId, roleUid: viewer, scope: org },
    });
  const single = await mapping("engineering");
  const batched = await mapping("platform");
  await emu.ok("DELETE", `/iam/v2beta1/externalGroupRoleMappings/${single.uid}`);
  await emu.ok("POST", "/iam/v2beta1/externalGroupRoleMappings:batchDelete", {
    body: { parent: idp.uid, names: [batched.uid] },
  });
  under("CreateExternalGroupRoleMapping", single.uid, org, idp.uid);
  under("DeleteExternalGroupRoleMapping", single.uid, org, idp.uid);
  under("BatchDeleteExternalGroupRoleMappings", idp.uid, org, idp.uid);
  await emu.ok("DELETE", `/iam/v2beta1/identityProviders/${idp.uid}`);
  for (const verb of ["Create", "Update", "Delete"]) under(`${verb}IdentityProvider`, idp.uid, g.uid);
  await emu.ok("POST", `/iam/v2beta1/accountAssociations/${g.uid}`, {
    body: { name: "aws", amazon: { account: "123456789012" } },
  });
  await emu.ok("PATCH", `/iam/v2beta1/accountAssociations/${g.uid}`, { body: { description: "d" } });
  await emu.ok("DELETE", `/iam/v2beta1/accountAssociations/${g.uid}`);
  for (const verb of ["Create", "Update", "Delete"]) under(`${verb}AccountAssociation`, g.uid, g.uid);
  const invite = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/groupInvites/${g.uid}`, {
    body: { roleUid: viewer, ttl: "86400s" },
  });
  await emu.ok("DELETE", `/iam/v2beta1/groupInvites/${invite.uid}`);
  under("CreateGroupInvite", invite.uid, g.uid);
  under("DeleteGroupInvite", invite.uid, g.uid);
  await registryWrites(g.uid, under);
  const sub = await createSubscription(g.uid, "https://hooks.example.com/irv");
  await emu.ok("DELETE", `/events/v2beta1/subscriptions/${sub.uid}`);
  under("CreateSubscription", sub.uid, g.uid);
  under("DeleteSubscription", sub.uid, g.uid);
  await emu.ok("DELETE", `/iam/v2beta1/groups/${g.uid}`);
  under("DeleteGroup", g.uid, parent);
  return expected;
}

/** The registry's writes under group `g`: a repo (and its readme), a tag, an overlay and its binding. */
async function registryWrites(
  g: string,
  under: (rpc: string, subject: string, group?: string) => void,
): Promise<void> {
  const org = emu.orgUid;
  const repo = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/repos/${g}`, {
    body: { name: "app" },
  });
  await emu.ok("PATCH", `/registry/v2beta1/repos/${repo.uid}`, { body: { description: "d" } });
  await emu.ok("PATCH", `/registry/v2beta1/repos/${repo.uid}/readme`, { body: { content: "# app" } });
  const tag = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/tags/${repo.uid}`, {
    body: { name: "latest", digest: `sha256:${"a".repeat(64)}` },
  });
  await emu.ok("DELETE", `/registry/v2beta1/tags/${tag.uid}`);
  const overlay = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/overlays/${g}`, {
    body: { name: "tools", config: { contents: { packages: ["curl"] } } },
  });
  const bound = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/overlayBindings/${repo.uid}`, {
    body: { overlay: overlay.uid, tags: ["latest"] },
  });
  await emu.ok("DELETE", `/registry/v2beta1/overlayBindings/${bound.uid}`);
  await emu.ok("DELETE", `/registry/v2beta1/overlays/${overlay.uid}`);
  await emu.ok("DELETE", `/registry/v2beta1/repos/${repo.uid}`);
  for (const verb of ["Create", "Update", "Delete"]) under(`${verb}Repo`, repo.uid, g);
  under("UpdateRepoReadme", repo.uid, g);
  for (const verb of ["Create", "Delete"]) {
    under(`${verb}Tag`, tag.uid, org);
    under(`${verb}Overlay`, overlay.uid, org);
    under(`${verb}OverlayBinding`, bound.uid, org);
  }
}

/** The method name of an rpc's full name. */
const methodOf = (rpc: string) => rpc.slice(rpc.lastIndexOf(".") + 1);

describe("a subscription", () => {
  test("receives the event of every CUSTOMER annotation, with its subject, extensions and a body decodable as the annotated message", async () => {
    const top = await emu.group("events-top");
    // The organization's: the registry's tags, overlays and bindings and the mappings name its root.
    const sink = await subscribe();
    const expected = await everyWrite(top.uid);
    const customer = annotations.all().filter((a) => a.audience === "customer");
    // Every annotated rpc was driven, the readme and the batch delete among them.
    expect(customer.map((a) => methodOf(a.rpc)).sort()).toEqual([...expected.keys()].sort());
    // Every delivery answered: each event is in (the UpdateRepo and UpdateRepoReadme events share a
    // type and a subject; their bodytype tells them apart).
    await settled();
    for (const a of customer) {
      const want = expected.get(methodOf(a.rpc)) as Expected;
      const event = sink.events.find(
        (e) => e.type === a.type && e.subject === want.subject && e.extensions.bodytype === a.body.typeName,
      );
      expect(event?.extensions, a.rpc).toMatchObject({
        audience: "customer",
        group: want.group,
        ...(want.identityprovider === undefined ? {} : { identityprovider: want.identityprovider }),
      });
      if (event?.data.body !== undefined) {
        // protojson of the published message: decodes strictly (an unknown field would throw).
        expect(
          () => fromJson(a.body, event.data.body as never, { registry: WIRE_REGISTRY }),
          a.rpc,
        ).not.toThrow();
      }
    }
    const of = (rpc: string) =>
      sink.events.find(
        (e) =>
          e.extensions.bodytype === annotations.all().find((a) => methodOf(a.rpc) === rpc)?.body.typeName,
      );
    expect(of("UpdateRepoReadme")?.data.body).toEqual({
      uid: expected.get("UpdateRepoReadme")?.subject,
      content: "# app",
    });
    expect(of("BatchDeleteExternalGroupRoleMappings")?.data.body).toMatchObject({
      parent: expected.get("BatchDeleteExternalGroupRoleMappings")?.subject,
      externalGroupRoleMappings: [{ externalGroupId: "platform", scope: emu.orgUid }],
    });
    // DeleteAccountAssociationRequest redacts to nothing, as published: no body at all.
    const aaDeleted = await sink.waitFor("dev.chainguard.api.iam.account_associations.deleted.v1");
    expect(aaDeleted.data).toEqual({ actor: { subject: "admin" } });
    await sink.close();
  });

  test("receives the writes of gRPC calls too: a create, a readme write and a mappings batch delete", async () => {
    const top = await emu.group("events-grpc");
    const sink = await subscribe();
    const groups = grpcClient(GroupsService, emu.baseUrl, emu.adminToken);
    const made = await groups.createGroup({
      parent: top.uid,
      group: { name: "over-grpc", description: "g" },
    });
    const event = await sink.waitFor("dev.chainguard.api.iam.group.created.v1", { subject: made.uid });
    expect(event.data.body).toMatchObject({ uid: made.uid, name: "over-grpc", description: "g" });
    expect(event.extensions.group).toBe(made.uid);

    const repo = await emu.ok<{ uid: string }>("POST", `/registry/v2beta1/repos/${top.uid}`, {
      body: { name: "grpc-app" },
    });
    const repos = grpcClient(ReposService, emu.baseUrl, emu.adminToken);
    await repos.updateRepoReadme({ repoReadme: { uid: repo.uid, content: "# over gRPC" } });
    const idp = await emu.ok<{ uid: string }>("POST", `/iam/v2beta1/identityProviders/${top.uid}`, {
      body: {
        name: "grpc-sso",
        defaultRole: await emu.roleUid("viewer"),
        oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "s" },
      },
    });
    const mappings = grpcClient(ExternalGroupRoleMappingsService, emu.baseUrl, emu.adminToken);
    const mapping = await mappings.createExternalGroupRoleMapping({
      parent: idp.uid,
      externalGroupRoleMapping: {
        externalGroupId: "eng",
        roleUid: await emu.roleUid("viewer"),
        scope: emu.orgUid,
      },
    });
    await mappings.batchDeleteExternalGroupRoleMappings({ parent: idp.uid, names: [mapping.uid] });
    await settled();
    const readme = sink.events.find(
      (e) =>
        e.extensions.bodytype === "chainguard.platform.registry.v2beta1.RepoReadme" && e.subject === repo.uid,
    );
    expect(readme).toMatchObject({
      type: "dev.chainguard.api.platform.registry.repo.updated.v1",
      extensions: { group: top.uid },
      data: { body: { uid: repo.uid, content: "# over gRPC" } },
    });
    const batch = await sink.waitFor("dev.chainguard.api.iam.external_group_role_mappings.deleted.batch.v1", {
      subject: idp.uid,
    });
    expect(batch.extensions).toMatchObject({
      group: emu.orgUid,
      identityprovider: idp.uid,
      bodytype: "chainguard.platform.iam.v2beta1.BatchDeleteExternalGroupRoleMappingsResponse",
    });
    expect(batch.data.body).toMatchObject({
      parent: idp.uid,
      externalGroupRoleMappings: [{ uid: mapping.uid }],
    });
    await sink.close();
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

  test("on an emulator whose clock stands still, is stamped with that clock and still retried after the backoff", async () => {
    // The stamps (write time, CloudEvent time, attempts) read the emulator's clock; the sink's rest
    // between attempts is real time, waited with a timer: on the standing clock it would never end.
    const at = Date.parse("2026-11-28T12:00:00.000Z");
    const still = await startTestEmulator({ clock: () => at });
    try {
      const top = await still.group("still-clock");
      const sink = await rawSink([(res) => res.writeHead(503).end(), (res) => res.writeHead(200).end()]);
      const sub = await still.ok<{ uid: string }>("POST", `/events/v2beta1/subscriptions/${top.uid}`, {
        body: { sink: sink.url },
      });
      await still.ok("PATCH", `/iam/v2beta1/groups/${top.uid}`, { body: { description: "still" } });
      await settled(still);
      const [mine] = still.deliveries({
        subscription: sub.uid,
        type: "dev.chainguard.api.iam.group.updated.v1",
      });
      const stamp = "2026-11-28T12:00:00.000Z";
      expect(mine).toMatchObject({ outcome: "accepted", writeTime: stamp });
      expect(mine?.attempts.map((a) => [a.status, a.time, a.durationMs])).toEqual([
        [503, stamp, 0],
        [200, stamp, 0],
      ]);
      expect(sink.received.map((r) => r.headers["ce-time"])).toEqual([stamp, stamp]);
    } finally {
      await still.close();
    }
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
