// The typed client (pulumi-irv/sdk) against the real emulator over HTTP: every operation kind,
// pagination, the spec's skip example, structured errors, identity exchange and retries under
// injected faults.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../../emulator/index.js";
import { startEmulator } from "../../../emulator/index.js";
import { ApiError, CAPABILITIES, exchangeToken, IrvClient, NO_RETRY } from "../../../sdk/index.js";

describe("IrvClient against the emulator", () => {
  let emulator: EmulatorHandle;
  let client: IrvClient;

  beforeAll(async () => {
    emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
    client = new IrvClient({
      baseUrl: emulator.baseUrl,
      token: emulator.adminToken,
      retry: { maxAttempts: 8, initialDelayMs: 1, maxDelayMs: 5, multiplier: 2 },
    });
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it("creates, reads, patches with a mask, clears and deletes a group", async () => {
    const g = await client.groups.create(emulator.orgUid, { name: "crud", description: "first" });
    expect(g).toMatchObject({ name: "crud", description: "first", verified: false, resourceLimits: {} });
    expect(await client.groups.get(g.uid)).toEqual(g);
    const renamed = await client.groups.update(
      g.uid,
      { name: "crud-2", description: "ignored" },
      { updateMask: ["name"] },
    );
    expect(renamed).toMatchObject({ name: "crud-2", description: "first" });
    expect(Date.parse(renamed.updateTime)).toBeGreaterThan(Date.parse(g.updateTime) - 1);
    const cleared = await client.groups.update(g.uid, {}, { updateMask: ["description"] });
    expect(cleared.description ?? "").toBe("");
    await client.groups.delete(g.uid);
    expect(await client.groups.find(g.uid)).toBeUndefined();
  });

  it("updates an identity's claimMatch subject through a nested mask path", async () => {
    const group = await client.groups.create(emulator.orgUid, { name: "ids" });
    const id = await client.identities.create(group.uid, {
      name: "ci",
      claimMatch: { issuer: "https://i.example", subject: "a" },
    });
    const moved = await client.identities.update(
      id.uid,
      { claimMatch: { issuer: "https://ignored.example", subject: "b" } },
      { updateMask: ["claimMatch.subject"] },
    );
    expect(moved.claimMatch).toEqual({ issuer: "https://i.example", subject: "b" });
  });

  it("writes every typed IAM kind; capabilities by display name travel as enum names; write-only and once-only fields come back as the contract says", async () => {
    const group = await client.groups.create(emulator.orgUid, { name: "typed" });
    const reads = CAPABILITIES.filter((c) => c.endsWith(".list"));
    const reader = await client.roles.create(group.uid, { name: "reader", capabilities: reads });
    expect([...reader.capabilities].sort()).toEqual([...reads].sort());
    const raw = await fetch(`${emulator.baseUrl}/iam/v2/roles/${reader.uid}`, {
      headers: { authorization: `Bearer ${emulator.adminToken}` },
    });
    expect(((await raw.json()) as { capabilities: string[] }).capabilities).toContain("CAP_IAM_GROUPS_LIST");
    const idp = await client.identityProviders.create(group.uid, {
      name: "corp",
      defaultRole: reader.uid,
      oidc: { issuer: "https://idp.example", clientId: "c", clientSecret: "secret" },
    });
    expect(idp.oidc).toEqual({
      issuer: "https://idp.example",
      clientId: "c",
      additionalScopes: [],
      correlationRule: "CORRELATION_RULE_UNSPECIFIED",
      pkceEnabled: false,
    });
    const invite = await client.groupInvites.create(group.uid, {
      roleUid: reader.uid,
      ttl: "1h",
    });
    expect(invite.code).toBeTruthy();
    expect(invite.role?.uid).toBe(reader.uid);
    expect(Date.parse(invite.expirationTime ?? "") - Date.now()).toBeGreaterThan(3_500_000);
    expect((await client.groupInvites.get(invite.uid)).code).toBeUndefined();
    const aa = await client.accountAssociations.create(group.uid, {
      name: "aws",
      amazon: { account: "123456789012" },
    });
    expect(aa.amazon?.account).toBe("123456789012");
    // The group's one association, named by the group's uid.
    expect(aa.uid).toBe(group.uid);
  });

  it("reads every item of a long list in order, by cursor and by parallel offsets", async () => {
    const parent = await client.groups.create(emulator.orgUid, { name: "many" });
    for (let i = 0; i < 450; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          client.groups.create(parent.uid, { name: `g-${String(i + j).padStart(3, "0")}` }),
        ),
      );
    const names = (await client.groups.collect({ childrenOf: parent.uid, orderBy: "name" })).map(
      (g) => g.name,
    );
    expect(names).toHaveLength(450);
    expect(names).toEqual([...names].sort());
    const parallel = (
      await client.groups.collectParallel({ childrenOf: parent.uid, orderBy: "name" }, { concurrency: 3 })
    ).map((g) => g.name);
    expect(parallel).toEqual(names);
  });

  it("reads the spec's example: skip 10 with page size 5 over 14 gives the last 4 and skipped 10", async () => {
    const parent = await client.groups.create(emulator.orgUid, { name: "fourteen" });
    for (let i = 0; i < 14; i++)
      await client.groups.create(parent.uid, { name: `n-${String(i).padStart(2, "0")}` });
    const page = await client.groups.list({ childrenOf: parent.uid, orderBy: "name", skip: 10, pageSize: 5 });
    expect(page.items.map((g) => g.name)).toEqual(["n-10", "n-11", "n-12", "n-13"]);
    expect(page).toMatchObject({ skipped: 10, totalCount: 14 });
    expect(page.nextPageToken).toBeUndefined();
  });

  it("turns a refused name into an ApiError naming the field and the pattern", async () => {
    const err = (await client.groups
      .create(emulator.orgUid, { name: "Bad Name" })
      .catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 3, httpStatus: 400, reason: "INVALID_ARGUMENT" });
    expect(err.fieldViolations).toEqual([
      expect.objectContaining({ field: "name", description: expect.stringContaining("^[a-z0-9 ._-]{1,}$") }),
    ]);
    expect(err.requestId).toBeTruthy();
  });

  it("recognises a refused delete of a non-empty group", async () => {
    const parent = await client.groups.create(emulator.orgUid, { name: "full" });
    const child = await client.groups.create(parent.uid, { name: "kid" });
    const err = (await client.groups.delete(parent.uid).catch((e) => e)) as ApiError;
    expect(err.isResourceNotEmpty()).toBe(true);
    expect(err.preconditionViolations.map((v) => v.subject)).toContain(child.uid);
  });

  it("assumes an identity through the token exchange and acts with its role", async () => {
    const team = await client.groups.create(emulator.orgUid, { name: "team-x" });
    const id = await client.identities.create(team.uid, {
      name: "bot",
      claimMatch: { issuer: emulator.issuerUrl, subject: "bot" },
    });
    const viewer = (await client.roles.list({ name: "viewer" })).items[0]!;
    await client.roleBindings.create(team.uid, { identityUid: id.uid, roleUid: viewer.uid });
    const identityToken = await emulator.mintIdentityToken({ subject: "bot" });
    const bot = new IrvClient({
      baseUrl: emulator.baseUrl,
      auth: exchangeToken({
        authUrl: emulator.authUrl,
        baseUrl: emulator.baseUrl,
        identity: id.uid,
        identityToken,
      }),
    });
    expect((await bot.groups.get(team.uid)).name).toBe("team-x");
    const denied = (await bot.groups.create(team.uid, { name: "nope" }).catch((e) => e)) as ApiError;
    expect(denied.codeName).toBe("PERMISSION_DENIED");
    await bot.close();
  });

  it("rides out injected 503s and 429s on reads", async () => {
    const g = await client.groups.create(emulator.orgUid, { name: "flaky-read" });
    // 60 % of answers fail: with 8 attempts a read gave up in about one run of three (0.6^8 per read,
    // 20 reads); with 30 it is 0.6^30 ≈ 2e-7 per read.
    emulator.setFaults("503=0.4,429=0.2");
    const retry = { maxAttempts: 30, initialDelayMs: 1, maxDelayMs: 5, multiplier: 2 };
    try {
      for (let i = 0; i < 20; i++)
        expect((await client.groups.get(g.uid, { retry })).name).toBe("flaky-read");
    } finally {
      emulator.setFaults("");
    }
  });

  it("finds a created group instead of creating it twice when the answer is lost", async () => {
    emulator.setFaults("reset-after=1");
    let created: { uid: string } | undefined;
    try {
      created = await client.groups.create(
        emulator.orgUid,
        { name: "lost-answer" },
        {
          retry: NO_RETRY,
          findExisting: async () => {
            emulator.setFaults("");
            return (await client.groups.list({ childrenOf: emulator.orgUid, name: "lost-answer" })).items[0];
          },
        },
      );
    } finally {
      emulator.setFaults("");
    }
    expect(
      (await client.groups.collect({ childrenOf: emulator.orgUid, name: "lost-answer" })).map((g) => g.uid),
    ).toEqual([created?.uid]);
  });
});
