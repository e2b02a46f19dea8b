// `pulumi-irv drift`'s comparison, on hand-built state and live objects: what it reports as changed
// (in the kind's own terms), deleted and unmanaged, the access each finding changes, and the lists
// that cover a stack's objects.
import { describe, expect, it } from "vitest";
import type { LiveObject } from "../../../../provider/cli/drift-compare.js";
import { compareDrift } from "../../../../provider/cli/drift-compare.js";
import { driftReads, explicitProviderOf, managedSubtrees } from "../../../../provider/cli/drift-read.js";
import { driftSummary, renderDriftMarkdown, renderDriftText } from "../../../../provider/cli/drift-render.js";
import type { StateResource } from "../../../../provider/cli/stack-state.js";
import { BUILT_IN_ROLE_CAPABILITIES } from "../../../../sdk/index.js";
import { ORG, seg } from "../iam-resource.js";

const T = "pulumi-nodejs:dynamic/irv";
const TEAM = `${ORG}/${seg(1)}`;
const CI = `${TEAM}/${seg(2)}`;
const BINDING = `${TEAM}/${seg(3)}`;
const OWNER = "f".repeat(32);
const VIEWER = "e".repeat(32);
const roles = [
  { uid: OWNER, name: "owner", capabilities: [...BUILT_IN_ROLE_CAPABILITIES.owner] },
  { uid: VIEWER, name: "viewer", capabilities: [...BUILT_IN_ROLE_CAPABILITIES.viewer] },
];

const res = (cls: string, name: string, uid: string, inputs: Record<string, unknown>): StateResource => ({
  urn: `urn:pulumi:dev::org::${T}:${cls}::${name}`,
  type: `${T}:${cls}`,
  id: uid,
  inputs: { ...inputs, __provider: "stub" },
  outputs: { ...inputs, uid },
});
const claimMatch = {
  issuer: "https://token.actions.githubusercontent.com",
  subject: "repo:acme/app:ref:refs/heads/main",
};
const state: StateResource[] = [
  res("Group", "team", TEAM, { parentUid: ORG, name: "team", description: "Team A" }),
  res("Identity", "ci", CI, { groupUid: TEAM, name: "ci", claimMatch }),
  res("RoleBinding", "ci-viewer", BINDING, { groupUid: TEAM, identityUid: CI, roleUid: VIEWER }),
];
const group = (uid: string, name: string, description?: string): LiveObject => ({
  className: "Group",
  uid,
  server: { uid, name, ...(description === undefined ? {} : { description }) },
});
const identity: LiveObject = { className: "Identity", uid: CI, server: { uid: CI, name: "ci", claimMatch } };
const binding = (uid: string, identityUid: string, role: { uid: string; name: string }): LiveObject => ({
  className: "RoleBinding",
  uid,
  server: {
    uid,
    group: { uid: TEAM, name: "team" },
    identity: { uid: identityUid, name: identityUid === CI ? "ci" : "intruder" },
    role,
  },
});
const asCoded = [
  group(TEAM, "team", "Team A"),
  identity,
  binding(BINDING, CI, { uid: VIEWER, name: "viewer" }),
];

describe("compareDrift", () => {
  it("finds nothing when the organization is as the code left it", () => {
    const report = compareDrift({ state, live: asCoded, subtrees: [TEAM], roles });
    expect(report.findings).toEqual([]);
    expect(report.review.rows).toEqual([]);
  });

  it("reports a field edited by hand, code against live, with no access change", () => {
    const live = [group(TEAM, "team", "edited by hand"), ...asCoded.slice(1)];
    const [f, ...rest] = compareDrift({ state, live, subtrees: [TEAM], roles }).findings;
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      state: "changed",
      className: "Group",
      name: "team",
      fields: [{ field: "description", code: "Team A", live: "edited by hand" }],
      access: [],
      risky: false,
    });
  });

  it("reports an identity deleted by hand and the access it lost", () => {
    const live = [asCoded[0] as LiveObject];
    const report = compareDrift({ state, live, subtrees: [TEAM], roles });
    expect(report.findings.map((f) => [f.state, f.className, f.name])).toEqual([
      ["deleted", "Identity", "ci"],
      ["deleted", "RoleBinding", "ci-viewer"],
    ]);
    const lost = report.review.rows.filter((r) => r.state === "lost");
    expect(lost.length).toBeGreaterThan(0);
    expect(report.findings[0]?.access).toEqual(expect.arrayContaining(lost.map((r) => r.id)));
    expect(report.findings.some((f) => f.risky)).toBe(false);
  });

  it("reports an owner binding made outside the stack as unmanaged and risky, and an unmanaged group", () => {
    const rogue = `${TEAM}/${seg(9)}`;
    const extra = binding(`${TEAM}/${seg(8)}`, CI, { uid: OWNER, name: "owner" });
    const report = compareDrift({
      state,
      live: [...asCoded, extra, group(rogue, "rogue")],
      subtrees: [TEAM],
      roles,
    });
    expect(report.findings.map((f) => [f.state, f.className, f.name, f.risky])).toEqual([
      ["unmanaged", "Group", "rogue", false],
      ["unmanaged", "RoleBinding", extra.uid, true],
    ]);
    const owner = report.findings[1];
    expect(owner?.detail).toBe("ci → owner at team");
    const rows = report.review.rows.filter((r) => owner?.access.includes(r.id));
    expect(rows.map((r) => [r.state, r.identity.name, r.risks.includes("owner-equivalent")])).toEqual([
      ["gained", "ci", true],
    ]);
  });

  it("reports nothing outside the managed subtrees, and compares a secret it cannot read as unchanged", () => {
    const sibling = group(`${ORG}/${seg(5)}`, "someone-elses");
    const secretState = state.map((r) =>
      r.urn.endsWith("::team")
        ? {
            ...r,
            inputs: {
              ...r.inputs,
              description: {
                "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
                ciphertext: "x",
              },
            },
          }
        : r,
    );
    const report = compareDrift({
      state: secretState,
      live: [group(TEAM, "team", "anything"), ...asCoded.slice(1), sibling],
      subtrees: [TEAM],
      roles,
    });
    expect(report.findings).toEqual([]);
  });

  // Regression (found by drift on the YAML program, issue 46): what the API never returns was
  // compared as edited by hand: a custom role's parent (its uid is flat) and an identity provider's
  // client secret, which the state keeps encrypted inside `oidc`.
  it("reports neither a role's parent nor a secret nested in an identity provider's oidc as changed", () => {
    const ROLE = "a".repeat(32);
    const IDP = `${TEAM}/${seg(6)}`;
    const secret = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: "x",
    };
    const oidc = { issuer: "https://accounts.google.com", clientId: "sso" };
    const more = [
      res("Role", "deployer", ROLE, { parentUid: TEAM, name: "deployer", capabilities: ["groups.list"] }),
      res("IdentityProvider", "sso", IDP, {
        parentUid: TEAM,
        name: "sso",
        defaultRoleUid: VIEWER,
        oidc: { ...oidc, clientSecret: secret },
      }),
    ];
    const live: LiveObject[] = [
      ...asCoded,
      {
        className: "Role",
        uid: ROLE,
        server: { uid: ROLE, name: "deployer", capabilities: ["groups.list"] },
      },
      {
        className: "IdentityProvider",
        uid: IDP,
        server: { uid: IDP, name: "sso", defaultRole: VIEWER, oidc },
      },
    ];
    const report = compareDrift({ state: [...state, ...more], live, subtrees: [TEAM], roles });
    expect(report.findings.map((f) => [f.className, f.fields])).toEqual([]);
  });

  // Issue 45: a mapping is a grant; the mapping made by hand to owner is drift with a risky row.
  it("reports an external group mapped to owner by hand as unmanaged and risky; a repo only where the stack manages repos", () => {
    const idp = `${TEAM}/${seg(6)}`;
    const mapping: LiveObject = {
      className: "ExternalGroupRoleMapping",
      uid: `${idp}/${seg(7)}`,
      server: {
        uid: `${idp}/${seg(7)}`,
        identityProviderUid: idp,
        externalGroupId: "admins",
        roleUid: OWNER,
        scope: ORG,
      },
    };
    const repo: LiveObject = {
      className: "Repo",
      uid: `${TEAM}/${seg(9)}`,
      server: { uid: `${TEAM}/${seg(9)}`, name: "app" },
    };
    const report = compareDrift({ state, live: [...asCoded, mapping, repo], subtrees: [TEAM], roles });
    expect(report.findings.map((f) => [f.state, f.className, f.detail, f.risky])).toEqual([
      ["unmanaged", "ExternalGroupRoleMapping", `admins (external group of ${idp}) → owner at ${ORG}`, true],
    ]);
    const rows = report.review.rows.filter((r) => report.findings[0]?.access.includes(r.id));
    expect(rows.map((r) => [r.state, r.identity.name, r.subtree.path])).toEqual([
      ["gained", `admins (external group of ${idp})`, "/"],
    ]);
  });

  // Regression (issue 45's kinds in the YAML program on the plugin): drift listed no tags, overlays
  // or overlay bindings, so the managed ones were reported deleted, and it took no
  // `irv:events:Subscription` for a managed class, so the managed subscription was reported unmanaged.
  it("finds nothing in a plugin stack's repo, tag, overlay, binding and subscription as the code left them", () => {
    const REPO = `${TEAM}/${seg(9)}`;
    const TAG = `${REPO}/${seg(10)}`;
    const OVERLAY = `${TEAM}/${seg(11)}`;
    const BOUND = `${REPO}/${seg(12)}`;
    const HOOK = `${TEAM}/${seg(13)}`;
    const DIGEST = `sha256:${"1".repeat(64)}`;
    const native = (type: string, name: string, uid: string, inputs: Record<string, unknown>) => ({
      ...res("Group", name, uid, inputs),
      urn: `urn:pulumi:dev::org::${type}::${name}`,
      type,
    });
    const coded = [
      native("irv:registry:Repo", "web", REPO, { parentUid: TEAM, name: "web" }),
      native("irv:registry:Tag", "latest", TAG, { repoUid: REPO, name: "latest", digest: DIGEST }),
      native("irv:registry:Overlay", "tools", OVERLAY, {
        parentUid: TEAM,
        name: "tools",
        config: { contents: { packages: ["jq"] } },
      }),
      native("irv:registry:OverlayBinding", "web-tools", BOUND, {
        repoUid: REPO,
        overlay: OVERLAY,
        tags: ["latest"],
      }),
      native("irv:events:Subscription", "hook", HOOK, {
        parentUid: TEAM,
        sink: "https://hooks.example.com/x",
      }),
    ];
    const live: LiveObject[] = [
      {
        className: "Repo",
        uid: REPO,
        server: {
          uid: REPO,
          name: "web",
          catalogTier: "CATALOG_TIER_UNSPECIFIED",
          bundles: [],
          aliases: [],
          activeTags: [],
        },
      },
      {
        className: "Tag",
        uid: TAG,
        server: { uid: TAG, name: "latest", digest: DIGEST, deprecated: false, bundles: [] },
      },
      {
        className: "Overlay",
        uid: OVERLAY,
        server: { uid: OVERLAY, name: "tools", config: { contents: { packages: ["jq"] } } },
      },
      {
        className: "OverlayBinding",
        uid: BOUND,
        server: { uid: BOUND, repo: REPO, overlay: { uid: OVERLAY, name: "tools" }, tags: ["latest"] },
      },
      { className: "Subscription", uid: HOOK, server: { uid: HOOK, sink: "https://hooks.example.com/x" } },
    ];
    const report = compareDrift({
      state: [...state, ...coded],
      live: [...asCoded, ...live],
      subtrees: [TEAM],
      roles,
    });
    expect(report.findings).toEqual([]);
    const lists = driftReads(coded).lists;
    expect(lists.map(([c]) => c)).toEqual(expect.arrayContaining(["tags", "overlays", "overlayBindings"]));
  });

  // Issue 46: a managed mapping deleted by hand and made again with another role has a new uid: the
  // coded one is deleted (its members lost its role), the new one unmanaged (they gained the other),
  // each with its own access rows. The identity provider sits at the organization's root, outside
  // the managed groups, as an SSO provider does: its mappings are the stack's all the same. (Its
  // client secret, kept encrypted inside `oidc` in the state, is no change either.)
  it("reports a managed mapping deleted by hand and remade with another role as deleted and unmanaged, each with the access it changes", () => {
    const idpUid = `${ORG}/${seg(6)}`;
    const coded = `${idpUid}/${seg(7)}`;
    const remade = `${idpUid}/${seg(8)}`;
    const PUSHER = "d".repeat(32);
    const withPusher = [...roles, { uid: PUSHER, name: "pusher", capabilities: ["repo.create"] }];
    const oidc = { issuer: "https://idp.example.com", clientId: "client", additionalScopes: [] };
    const sso = res("IdentityProvider", "sso", idpUid, {
      parentUid: ORG,
      name: "sso",
      defaultRoleUid: VIEWER,
      oidc: {
        ...oidc,
        clientSecret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" },
      },
    });
    const mapped = res("ExternalGroupRoleMapping", "eng-pusher", coded, {
      identityProviderUid: idpUid,
      externalGroupId: "eng",
      roleUid: PUSHER,
      scope: ORG,
    });
    const liveIdp: LiveObject = {
      className: "IdentityProvider",
      uid: idpUid,
      server: {
        uid: idpUid,
        name: "sso",
        defaultRole: VIEWER,
        oidc: { ...oidc, pkceEnabled: false, correlationRule: "CORRELATION_RULE_UNSPECIFIED" },
      },
    };
    const mapping = (uid: string, roleUid: string): LiveObject => ({
      className: "ExternalGroupRoleMapping",
      uid,
      server: { uid, identityProviderUid: idpUid, externalGroupId: "eng", roleUid, scope: ORG },
    });
    const withMapping = [...state, sso, mapped];
    // The mappings of the provider are read, though it is outside the managed subtree.
    expect(driftReads(withMapping).lists).toContainEqual([
      "externalGroupRoleMappings",
      { childrenOf: idpUid },
    ]);
    const compare = (live: LiveObject[]) =>
      compareDrift({
        state: withMapping,
        live: [...asCoded, liveIdp, ...live],
        subtrees: [TEAM],
        roles: withPusher,
      });
    expect(compare([mapping(coded, PUSHER)]).findings).toEqual([]);
    const report = compare([mapping(remade, VIEWER)]);
    expect(report.findings.map((f) => [f.state, f.className, f.name, f.risky])).toEqual([
      ["deleted", "ExternalGroupRoleMapping", "eng-pusher", false],
      // A grant at the root is a risk class of its own.
      ["unmanaged", "ExternalGroupRoleMapping", remade, true],
    ]);
    const [deleted, unmanaged] = report.findings;
    expect(unmanaged?.detail).toBe(`eng (external group of ${idpUid}) → viewer at ${ORG}`);
    const rowsOf = (ids: string[] | undefined) =>
      report.review.rows
        .filter((r) => ids?.includes(r.id))
        .map((r) => [r.state, r.identity.name, r.capabilities.includes("repo.create")]);
    expect(rowsOf(deleted?.access)).toEqual([["lost", "eng (external group of sso)", true]]);
    expect(rowsOf(unmanaged?.access)).toEqual([["gained", "eng (external group of sso)", false]]);
    expect(report.review.rows.find((r) => r.id === unmanaged?.access[0])?.risks).toEqual(["root"]);
    // Made again to owner instead: owner-equivalent too.
    const again = compare([mapping(remade, OWNER)]);
    const owner = again.findings.find((f) => f.state === "unmanaged");
    expect(again.review.rows.find((r) => r.id === owner?.access[0])?.risks).toContain("owner-equivalent");
  });

  it("renders every finding in text and markdown, the markdown with its marker", () => {
    const extra = binding(`${TEAM}/${seg(8)}`, CI, { uid: OWNER, name: "owner" });
    const report = compareDrift({
      state,
      live: [group(TEAM, "team", "edited"), identity, extra],
      subtrees: [TEAM],
      roles,
    });
    const about = { stack: "dev", requests: 7, objects: 3, subtrees: [TEAM] };
    expect(driftSummary(report, about)).toBe(
      "Drift in stack dev: 1 changed, 1 deleted, 1 unmanaged (1 risky).",
    );
    const text = renderDriftText(report, about);
    expect(text).toContain(`description: "Team A" (code) → "edited" (live)`);
    expect(text).toContain("deleted    RoleBinding ci-viewer");
    expect(text).toMatch(/unmanaged {2}RoleBinding .* {2}RISKY\n {11}ci → owner at team/);
    const md = renderDriftMarkdown(report, about);
    expect(md.split("\n")[0]).toBe("<!-- pulumi-irv:drift -->");
    expect(md).not.toContain("<!-- pulumi-irv:access-review -->");
    expect(md).toContain("| ⚠️ unmanaged | RoleBinding");
  });
});

describe("the lists drift reads", () => {
  it("lists each managed subtree whole, and a managed object elsewhere through its group's children", () => {
    const rootBinding = res("RoleBinding", "ci-root", `${ORG}/${seg(7)}`, {
      groupUid: ORG,
      identityUid: CI,
      roleUid: VIEWER,
    });
    const { subtrees, lists, byUid } = driftReads([...state, rootBinding]);
    expect(subtrees).toEqual([TEAM]);
    expect(lists).toEqual(
      expect.arrayContaining([
        ["groups", { descendantsOf: TEAM }],
        ["roleBindings", { descendantsOf: TEAM }],
        ["groups", { childrenOf: ORG }],
        ["roleBindings", { childrenOf: ORG }],
      ]),
    );
    // The team's identity and binding are in its subtree's lists: no list of their own.
    expect(lists.filter(([, q]) => "childrenOf" in q && q.childrenOf === TEAM)).toEqual([]);
    expect(byUid).toEqual([]);
  });

  // Regression (found by drift on the YAML program, issue 46): a group of a second organization,
  // managed through an explicit provider, was reported deleted: the stack's settings cannot see it.
  it("names the explicit provider a resource is managed through, and none for the default ones", () => {
    const through = (provider: string) => ({ ...state[0]!, provider: `${provider}::04da6b54-80e4-46f7` });
    const prefix = "urn:pulumi:dev::org::pulumi:providers:irv::";
    expect(explicitProviderOf(through(`${prefix}secondOrg`))).toBe("secondOrg");
    expect(explicitProviderOf(through(`${prefix}default_0_9_0`))).toBeUndefined();
    expect(explicitProviderOf(through(`${prefix}default`))).toBeUndefined();
    expect(
      explicitProviderOf(through("urn:pulumi:dev::org::pulumi:providers:pulumi-nodejs::default")),
    ).toBeUndefined();
    expect(explicitProviderOf(state[0]!)).toBeUndefined();
  });

  it("takes only the topmost managed groups as subtrees", () => {
    const sub = res("Group", "sub", `${TEAM}/${seg(4)}`, { parentUid: TEAM, name: "sub" });
    expect(managedSubtrees([...state, sub])).toEqual([TEAM]);
  });
});
