import { describe, expect, it } from "vitest";
import { groupKind, identityKind, makeProvider, roleBindingKind } from "../../../provider/runtime/index.js";
import type { IrvClient } from "../../../sdk/index.js";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const noClient = (): IrvClient => {
  throw new Error("check and diff must not call the API");
};
const group = makeProvider(groupKind, noClient);
const identity = makeProvider(identityKind, noClient);
const binding = makeProvider(roleBindingKind, noClient);
const ORG = "0123456789abcdef0123456789abcdef01234567";

describe("check", () => {
  it("refuses a group name with capitals, naming the property, the rule and the shape of the value", async () => {
    const r = await group.check({}, { parentUid: ORG, name: "Team A" });
    expect(r.failures).toEqual([
      {
        property: "name",
        reason: "group name must match the pattern ^[a-z0-9 ._-]{1,}$ (got a string of 6 characters)",
      },
    ]);
  });

  it("regression (check echoed input values, secrets included): names the property and rule, never the value", async () => {
    const secretish = "http://deploy:hunter2-s3cret@issuer.example.com";
    const r = await identity.check(
      {},
      { groupUid: ORG, name: "ci", claimMatch: { issuer: secretish, subject: "s" } },
    );
    expect(r.failures?.map((f) => f.property)).toEqual(["claimMatch.issuer"]);
    expect(JSON.stringify(r.failures)).not.toContain("hunter2");
  });

  it("regression (uid inputs reached URL paths unchecked): refuses path-traversal and malformed uids at preview, naming the property", async () => {
    const identityUid = `${ORG}/0123456789abcdef`;
    for (const bad of [
      `../identities/${identityUid}`,
      `${ORG}/%2e%2e`,
      `${ORG}//0123456789abcdef`,
      `${ORG}/`,
    ]) {
      const g = await group.check({}, { parentUid: bad, name: "ok" });
      expect(g.failures).toEqual([
        {
          property: "parentUid",
          reason: expect.stringMatching(/^group parentUid must be 40 lowercase hex digits/),
        },
      ]);
    }
    const b = await binding.check(
      {},
      { groupUid: ORG, identityUid: `${ORG}/../x`, roleUid: `${ORG}/0123456789abcdef` },
    );
    expect(b.failures?.map((f) => f.property)).toEqual(["identityUid", "roleUid"]);
    expect(b.failures?.[1]?.reason).toContain("flat role uid");
  });

  it("says what a missing parentUid should be", async () => {
    const r = await group.check({}, { name: "ok" });
    expect(r.failures?.[0]?.property).toBe("parentUid");
    expect(r.failures?.[0]?.reason).toMatch(/is required: the uid of the parent group/);
  });

  it("lets values unknown during preview through", async () => {
    expect((await group.check({}, { parentUid: UNKNOWN, name: UNKNOWN })).failures).toEqual([]);
    expect(
      (await identity.check({}, { groupUid: UNKNOWN, name: "ci", claimMatch: UNKNOWN })).failures,
    ).toEqual([]);
  });

  it("refuses an identity issuer over plain http to a public host", async () => {
    const r = await identity.check(
      {},
      { groupUid: ORG, name: "ci", claimMatch: { issuer: "http://issuer.example.com", subject: "s" } },
    );
    expect(r.failures).toEqual([
      expect.objectContaining({
        property: "claimMatch.issuer",
        reason: expect.stringContaining("must be an https URL"),
      }),
    ]);
  });

  it("accepts an https issuer and the local emulator's loopback issuer", async () => {
    for (const issuer of [
      "https://token.actions.githubusercontent.com",
      "http://127.0.0.1:4000/oidc",
      "http://localhost:1/x",
    ])
      expect(
        (await identity.check({}, { groupUid: ORG, name: "ci", claimMatch: { issuer, subject: "s" } }))
          .failures,
      ).toEqual([]);
  });

  it("reports every missing field of a role binding at once", async () => {
    const r = await binding.check({}, {});
    expect(r.failures?.map((f) => f.property)).toEqual(["groupUid", "identityUid", "roleUid"]);
  });

  it("keeps the inputs as given, including the provider", async () => {
    const news = { parentUid: ORG, name: "a", __provider: "code" };
    expect((await group.check({}, news)).inputs).toBe(news);
  });
});

describe("diff", () => {
  const olds = {
    parentUid: ORG,
    name: "a",
    description: "d",
    uid: `${ORG}/0123456789abcdef`,
    verified: false,
    createTime: "t",
    __provider: "x",
  };

  it("reports no change when the inputs match the stored outputs", async () => {
    expect(
      await group.diff("id", olds, { parentUid: ORG, name: "a", description: "d", __provider: "y" }),
    ).toEqual({ changes: false });
  });

  it("updates in place when only the description changes", async () => {
    const r = await group.diff("id", olds, { parentUid: ORG, name: "a", description: "new" });
    expect(r.replaces).toEqual([]);
    expect(r.changes).toBeUndefined();
  });

  it("treats a removed description as a change and an empty one as none", async () => {
    expect((await group.diff("id", olds, { parentUid: ORG, name: "a" })).changes).toBeUndefined();
    expect(await group.diff("id", { ...olds, description: "" }, { parentUid: ORG, name: "a" })).toEqual({
      changes: false,
    });
  });

  it("replaces a group moved to another parent", async () => {
    expect(
      (await group.diff("id", olds, { parentUid: `${ORG}/fedcba9876543210`, name: "a", description: "d" }))
        .replaces,
    ).toEqual(["parentUid"]);
  });

  it("replaces when the new parent is not known yet", async () => {
    expect(
      (await group.diff("id", olds, { parentUid: UNKNOWN, name: "a", description: "d" })).replaces,
    ).toEqual(["parentUid"]);
  });

  it("changes a binding's identity and role in place and replaces it only in another group", async () => {
    const b = { groupUid: "g", identityUid: "i", roleUid: "r" };
    expect((await binding.diff("id", b, { ...b, identityUid: "j" })).replaces).toEqual([]);
    expect((await binding.diff("id", b, { ...b, roleUid: "r2" })).replaces).toEqual([]);
    expect((await binding.diff("id", b, { ...b, groupUid: "h" })).replaces).toEqual(["groupUid"]);
  });

  it("sees a change of the claimMatch subject", async () => {
    const i = { groupUid: "g", name: "ci", claimMatch: { issuer: "https://i", subject: "a" } };
    expect(
      (await identity.diff("id", i, { ...i, claimMatch: { issuer: "https://i", subject: "b" } })).changes,
    ).toBeUndefined();
    expect(await identity.diff("id", i, { ...i, claimMatch: { subject: "a", issuer: "https://i" } })).toEqual(
      { changes: false },
    );
  });
});
