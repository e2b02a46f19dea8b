// The kinds the service never updates (overlays, bindings, subscriptions, mappings) and the tag,
// whose update is the create again (an upsert by name).
import { describe, expect, it } from "vitest";
import {
  externalGroupRoleMappingKind,
  makeProvider,
  overlayBindingKind,
  overlayKind,
  subscriptionKind,
  tagKind,
} from "../../../../../provider/runtime/index.js";
import { fakeClient } from "./fake-client.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ORG}/00000000000000bb`;
const REPO = `${ORG}/0123456789abcdef`;
const TAG = `${REPO}/00000000000000cc`;
const IDP = `${ORG}/00000000000000dd`;
const ROLE = "00000000000000000000000000000000000000b2";
const D1 = `sha256:${"1".repeat(64)}`;
const D2 = `sha256:${"2".repeat(64)}`;
const noClient = () => fakeClient({}).client;

describe("irv.registry.Tag", () => {
  it("moves to a new digest in place by sending the create again (the upsert), never a delete", async () => {
    const { client, calls } = fakeClient({
      "tags.create": (_repo: string, body: Record<string, unknown>) => ({ uid: TAG, ...body }),
    });
    const provider = makeProvider(tagKind, () => client);
    const state = { repoUid: REPO, name: "latest", digest: D1, uid: TAG };
    const diff = await provider.diff(TAG, state, { repoUid: REPO, name: "latest", digest: D2 });
    expect(diff.replaces).toEqual([]);
    const { outs } = await provider.update(TAG, state, { repoUid: REPO, name: "latest", digest: D2 });
    expect(calls).toEqual([{ method: "tags.create", args: [REPO, { name: "latest", digest: D2 }] }]);
    expect(outs).toMatchObject({ uid: TAG, digest: D2 });
  });

  it("is replaced by another name or repo", async () => {
    const provider = makeProvider(tagKind, noClient);
    const state = { repoUid: REPO, name: "latest", digest: D1, uid: TAG };
    expect((await provider.diff(TAG, state, { ...state, name: "v1" })).replaces).toEqual(["name"]);
    expect(
      (await provider.diff(TAG, state, { ...state, repoUid: `${ORG}/00000000000000ee` })).replaces,
    ).toEqual(["repoUid"]);
  });

  it("refuses a digest that is not sha256: and 64 lowercase hex digits, naming the field", async () => {
    const r = await makeProvider(tagKind, noClient).check(
      {},
      { repoUid: REPO, name: "latest", digest: "sha256:ABC" },
    );
    expect(r.failures).toEqual([
      { property: "digest", reason: expect.stringContaining("tag digest must be a digest") },
    ]);
  });
});

describe("irv.registry.Overlay", () => {
  const provider = makeProvider(overlayKind, noClient);
  const state = {
    parentUid: GROUP,
    name: "tools",
    config: { contents: { packages: ["curl"] } },
    uid: `${GROUP}/01`,
  };

  it("is replaced by any change; a new config under the same name deletes the old one first", async () => {
    const config = await provider.diff("u", state, { ...state, config: { contents: { packages: ["jq"] } } });
    expect(config).toMatchObject({ replaces: ["config"], deleteBeforeReplace: true });
    const renamed = await provider.diff("u", state, { ...state, name: "tools2" });
    expect(renamed).toMatchObject({ replaces: ["name"], deleteBeforeReplace: false });
  });

  it("refuses an overlay without packages, naming the field", async () => {
    const r = await provider.check(
      {},
      { parentUid: GROUP, name: "t", config: { contents: { packages: [] } } },
    );
    expect(r.failures?.[0]).toMatchObject({ property: "config.contents.packages" });
    expect(r.failures?.[0]?.reason).toContain("at least one package");
  });
});

describe("irv.registry.OverlayBinding", () => {
  // The provider over a service holding one binding of the overlay "tools", answered expanded.
  const boundTools = () => {
    const { client } = fakeClient({
      "overlayBindings.find": () => ({
        uid: `${REPO}/01`,
        repo: REPO,
        overlay: { uid: `${GROUP}/01`, name: "tools", config: { environment: {}, annotations: {} } },
        tags: ["latest"],
      }),
    });
    return makeProvider(overlayBindingKind, () => client);
  };

  it("is replaced by any change", async () => {
    const provider = makeProvider(overlayBindingKind, noClient);
    const state = { repoUid: REPO, overlay: "tools", tags: ["latest"], uid: `${REPO}/01` };
    for (const [key, value] of [
      ["overlay", "other"],
      ["tags", ["v1"]],
      ["repoUid", `${ORG}/00000000000000ee`],
    ] as const)
      expect((await provider.diff("u", state, { ...state, [key]: value })).replaces).toEqual([key]);
  });

  it("keeps the overlay as the program named it on refresh (the service answers it expanded)", async () => {
    const provider = boundTools();
    const declared = { repoUid: REPO, overlay: "tools", tags: ["latest"] };
    const read = await provider.read(`${REPO}/01`, { ...declared, uid: `${REPO}/01` });
    expect(read.props).toMatchObject({ overlay: "tools", overlayUid: `${GROUP}/01`, overlayName: "tools" });
    expect((await provider.diff("u", read.props ?? {}, declared)).changes).toBe(false);
  });

  // Regression (issue 45): `pulumi import` wrote `overlay: ""` from the inputs an import read, and
  // the code it wrote failed its first preview.
  it("imported, names the overlay in its inputs by the uid the service answered; a program naming it either way previews no change", async () => {
    const provider = boundTools();
    const read = await provider.read(`${REPO}/01`, {});
    expect(read.inputs).toMatchObject({ repoUid: REPO, overlay: `${GROUP}/01`, tags: ["latest"] });
    for (const overlay of [`${GROUP}/01`, "tools"])
      expect((await provider.diff("u", read.props ?? {}, { ...read.inputs, overlay })).changes).toBe(false);
  });
});

describe("irv.events.Subscription", () => {
  const provider = makeProvider(subscriptionKind, noClient);

  it("is replaced by a new sink", async () => {
    const state = { parentUid: ORG, sink: "https://a.example/hook", uid: `${ORG}/01` };
    expect((await provider.diff("u", state, { ...state, sink: "https://b.example/hook" })).replaces).toEqual([
      "sink",
    ]);
  });

  it("refuses an http sink on a public host, naming the field and the rule", async () => {
    const r = await provider.check({}, { parentUid: ORG, sink: "http://hooks.example.com/x" });
    expect(r.failures).toEqual([
      {
        property: "sink",
        reason: expect.stringContaining("must use the https scheme (http only on a loopback host)"),
      },
    ]);
    expect((await provider.check({}, { parentUid: ORG, sink: "http://127.0.0.1:8080/x" })).failures).toEqual(
      [],
    );
  });
});

describe("irv.iam.ExternalGroupRoleMapping", () => {
  it("is immutable: any change replaces it", async () => {
    const provider = makeProvider(externalGroupRoleMappingKind, noClient);
    const state = {
      identityProviderUid: IDP,
      externalGroupId: "admins",
      roleUid: ROLE,
      scope: ORG,
      uid: `${IDP}/01`,
    };
    expect((await provider.diff("u", state, { ...state, externalGroupId: "devs" })).replaces).toEqual([
      "externalGroupId",
    ]);
    expect((await provider.diff("u", state, { ...state, roleUid: "0".repeat(40) })).replaces).toEqual([
      "roleUid",
    ]);
    // Left out, the scope is the organization root the service recorded: no change.
    const { scope: _, ...unscoped } = state;
    expect((await provider.diff("u", state, unscoped)).changes).toBe(false);
  });

  it("defaults the scope to the organization root of the identity provider", async () => {
    const { client, calls } = fakeClient({
      "externalGroupRoleMappings.create": (idp: string, body: Record<string, unknown>) => ({
        uid: `${idp}/01`,
        identityProviderUid: idp,
        ...body,
      }),
    });
    const { outs } = await makeProvider(externalGroupRoleMappingKind, () => client).create({
      identityProviderUid: IDP,
      externalGroupId: "admins",
      roleUid: ROLE,
    });
    expect(calls[0]?.args.slice(0, 2)).toEqual([
      IDP,
      { externalGroupId: "admins", roleUid: ROLE, scope: ORG },
    ]);
    expect(outs).toMatchObject({ scope: ORG, uid: `${IDP}/01` });
  });

  it("refuses a scope other than the organization root, naming it", async () => {
    const r = await makeProvider(externalGroupRoleMappingKind, noClient).check(
      {},
      { identityProviderUid: IDP, externalGroupId: "admins", roleUid: ROLE, scope: GROUP },
    );
    expect(r.failures).toEqual([
      {
        property: "scope",
        reason: expect.stringContaining(`must be the organization root of the identity provider (${ORG})`),
      },
    ]);
  });
});
