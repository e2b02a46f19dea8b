// The access review's computation on hand-built stack resources: effective capabilities through
// the group tree, rows with provenance, maybe states for values unknown at preview, risk classes,
// lock-out, stable finding ids and approvals.
import { describe, expect, test } from "vitest";
import type { KnownRole, StackResource } from "../../../../review/index.js";
import {
  deprecations,
  findingId,
  isRisky,
  orgModelOf,
  PREVIEW_UNKNOWN,
  parseApprovals,
  reviewAccess,
  uidIndexOf,
  unapprovedChanges,
} from "../../../../review/index.js";
import { BUILT_IN_ROLE_CAPABILITIES, CAPABILITIES } from "../../../../sdk/index.js";

const ORG = "a".repeat(40);
const seg = (n: number) => n.toString(16).padStart(16, "0");
const urn = (cls: string, name: string, family = "pulumi-nodejs:dynamic/irv") =>
  `urn:pulumi:dev::org::${family}:${cls}::${name}`;
const res = (
  cls: string,
  name: string,
  props: Record<string, unknown>,
  deps?: Record<string, string[]>,
): StackResource => ({
  urn: urn(cls, name),
  type: `pulumi-nodejs:dynamic/irv:${cls}`,
  props,
  propertyDependencies: deps,
});
const VIEWER = "1".repeat(40);
const EDITOR = "2".repeat(40);
const OWNER = "3".repeat(40);
const ROLES: KnownRole[] = [
  { uid: OWNER, name: "owner", capabilities: [...CAPABILITIES] },
  {
    uid: EDITOR,
    name: "editor",
    capabilities: CAPABILITIES.filter((c) => !/^(role_bindings|roles)\.(create|update|delete)$/.test(c)),
  },
  { uid: VIEWER, name: "viewer", capabilities: CAPABILITIES.filter((c) => c.endsWith(".list")) },
];
const platform = `${ORG}/${seg(1)}`;
const payments = `${platform}/${seg(2)}`;
const gh = "https://token.actions.githubusercontent.com";

// An org: platform ⊃ payments; "ci" in platform bound viewer on platform; "admin" owner at the root.
function base(): StackResource[] {
  return [
    res("Group", "platform", { uid: platform, parentUid: ORG, name: "platform" }),
    res("Group", "payments", { uid: payments, parentUid: platform, name: "payments" }),
    res("Identity", "ci", {
      uid: `${platform}/${seg(3)}`,
      groupUid: platform,
      name: "ci",
      claimMatch: { issuer: gh, subject: "repo:acme/app:ref:refs/heads/main" },
    }),
    res("Identity", "admin", {
      uid: `${ORG}/${seg(4)}`,
      groupUid: ORG,
      name: "admin",
      claimMatch: { issuer: gh, subject: "repo:acme/infra:ref:refs/heads/main" },
    }),
    res("RoleBinding", "ci-viewer", {
      uid: `${platform}/${seg(5)}`,
      groupUid: platform,
      identityUid: `${platform}/${seg(3)}`,
      roleUid: VIEWER,
    }),
    res("RoleBinding", "admin-owner", {
      uid: `${ORG}/${seg(6)}`,
      groupUid: ORG,
      identityUid: `${ORG}/${seg(4)}`,
      roleUid: OWNER,
    }),
  ];
}
function review(before: StackResource[], after: StackResource[]) {
  const uidIndex = uidIndexOf([...before, ...after]);
  return reviewAccess(
    orgModelOf(before, { roles: ROLES, uidIndex }),
    orgModelOf(after, { roles: ROLES, uidIndex }),
  );
}
const replace = (list: StackResource[], name: string, props: Record<string, unknown>) =>
  list.map((r) => (r.urn.endsWith(`::${name}`) ? { ...r, props: { ...r.props, ...props } } : r));

test("a description edit changes no access: no rows, no lock-out", () => {
  const r = review(base(), replace(base(), "platform", { description: "the platform team" }));
  expect(r.rows).toEqual([]);
  expect(r.lockOut).toBeUndefined();
});

test("binding editor at the root: one gained row at /, risky as root, naming binding → role → group", () => {
  const after = [
    ...base(),
    res("RoleBinding", "ci-editor-root", {
      groupUid: ORG,
      identityUid: `${platform}/${seg(3)}`,
      roleUid: EDITOR,
    }),
  ];
  const r = review(base(), after);
  expect(r.rows).toHaveLength(1);
  const [row] = r.rows;
  expect(row?.state).toBe("gained");
  expect(row?.identity.name).toBe("ci");
  expect(row?.subtree.path).toBe("/");
  // Viewer's .list capabilities on platform were held already, but not at the root: all editor caps are gained at /.
  expect(row?.capabilities).toEqual([...ROLES[1]!.capabilities].sort());
  expect(row?.risks).toContain("root");
  expect(row?.risks).not.toContain("owner-equivalent");
  expect(row?.grant).toMatchObject({
    binding: "ci-editor-root",
    role: "editor",
    group: "/",
    roleEdited: false,
  });
  expect(row?.grant.roleUid).toBe(EDITOR);
  expect(row?.grant.groupUid).toBe(ORG);
  // The capabilities are all of editor's set: the row says so.
  expect(row?.allOf).toEqual({ role: "editor", count: ROLES[1]!.capabilities.length });
  expect(row?.id).toMatch(/^ag-[0-9a-f]{16}$/);
});

test("a change at a group and every descendant is reported once, at the highest group", () => {
  const after = replace(base(), "ci-viewer", { roleUid: EDITOR });
  const r = review(base(), after);
  expect(r.rows.map((x) => [x.state, x.subtree.path])).toEqual([["gained", "/platform"]]);
  expect(r.rows[0]?.capabilities).toContain("groups.delete");
  expect(r.rows[0]?.capabilities).not.toContain("groups.list");
});

test("a custom role gaining role_bindings.create: every holder gains it, each row names the edited role", () => {
  const role = res("Role", "deployer", {
    uid: "9".repeat(40),
    parentUid: platform,
    name: "deployer",
    capabilities: ["groups.list"],
  });
  const bind = (n: string, id: string) =>
    res("RoleBinding", n, { groupUid: payments, identityUid: id, roleUid: "9".repeat(40) });
  const before = [
    ...base(),
    role,
    bind("ci-deployer", `${platform}/${seg(3)}`),
    bind("admin-deployer", `${ORG}/${seg(4)}`),
  ];
  const after = replace(before, "deployer", { capabilities: ["groups.list", "role_bindings.create"] });
  const r = review(before, after);
  const gained = r.rows.filter((x) => x.state === "gained");
  // admin holds owner at the root already: only ci gains.
  expect(gained.map((x) => [x.identity.name, x.subtree.path, x.capabilities])).toEqual([
    ["ci", "/platform/payments", ["role_bindings.create"]],
  ]);
  expect(gained[0]?.risks).toEqual(["escalation"]);
  expect(gained[0]?.grant).toMatchObject({
    binding: "ci-deployer",
    role: "deployer",
    group: "/platform/payments",
    roleEdited: true,
  });
});

test("a new identity and binding unknown at preview resolve through property dependencies", () => {
  const after = [
    ...base(),
    res("Identity", "deploy", {
      uid: PREVIEW_UNKNOWN,
      groupUid: platform,
      name: "deploy",
      claimMatch: { issuer: gh, subject: "repo:acme/deploy:ref:refs/heads/main" },
    }),
    res(
      "RoleBinding",
      "deploy-viewer",
      { groupUid: payments, identityUid: PREVIEW_UNKNOWN, roleUid: VIEWER },
      { identityUid: [urn("Identity", "deploy")] },
    ),
  ];
  const r = review(base(), after);
  expect(r.rows).toHaveLength(1);
  expect(r.rows[0]).toMatchObject({
    state: "gained",
    identity: { name: "deploy", isNew: true },
    subtree: { path: "/platform/payments" },
  });
  expect(r.rows[0]?.risks).toEqual(["new-identity"]);
});

test("what stays unknown is maybe-gained, with every capability possible, and counts as gained for the gate", () => {
  const after = [
    ...base(),
    res("RoleBinding", "mystery", {
      groupUid: platform,
      identityUid: `${platform}/${seg(3)}`,
      roleUid: PREVIEW_UNKNOWN,
    }),
  ];
  const r = review(base(), after);
  expect(r.rows.map((x) => x.state)).toEqual(["maybe-gained"]);
  expect(r.rows[0]?.risks).toContain("owner-equivalent");
  expect(unapprovedChanges(r, [], { failOn: "risky", now: new Date() })[0]?.ids).toHaveLength(
    r.rows[0]?.findings.length ?? -1,
  );
});

test("a binding's identity changed in place (one update, the same binding uid): the old identity loses the role, the new one gains it, and the gate counts the gain", () => {
  const deployer = `${platform}/${seg(9)}`;
  const withDeployer = [
    ...base(),
    res("Identity", "deployer", {
      uid: deployer,
      groupUid: platform,
      name: "deployer",
      claimMatch: { issuer: gh, subject: "repo:acme/deploy:ref:refs/heads/main" },
    }),
  ];
  const after = replace(withDeployer, "ci-viewer", { identityUid: deployer });
  const r = review(withDeployer, after);
  expect(r.rows.map((x) => [x.identity.name, x.state, x.subtree.path, x.grant.binding])).toEqual([
    ["deployer", "gained", "/platform", "ci-viewer"],
    ["ci", "lost", "/platform", "ci-viewer"],
  ]);
  const lost = r.rows.find((x) => x.state === "lost");
  expect(lost?.capabilities).toEqual([...ROLES[2]!.capabilities].sort());
  const gained = r.rows.find((x) => x.state === "gained");
  const blocked = unapprovedChanges(r, [], { failOn: "any", now: new Date() }).flatMap((u) => u.ids);
  expect(gained?.findings.length).toBeGreaterThan(0);
  for (const f of gained?.findings ?? []) expect(blocked).toContain(f.id);
});

test("removing the last owner binding at the root is a lock-out, and the owner's losses are rows", () => {
  const after = base().filter((x) => !x.urn.endsWith("::admin-owner"));
  const r = review(base(), after);
  expect(r.lockOut?.removed).toEqual(["admin-owner"]);
  expect(r.rows.map((x) => [x.identity.name, x.state, x.subtree.path])).toEqual([["admin", "lost", "/"]]);
  expect(unapprovedChanges(r, [], { failOn: "risky", now: new Date() }).map((u) => u.ids)).toEqual([
    [r.lockOut?.id],
  ]);
});

test("a subjectPattern broadened to repo:acme/.* re-grants the identity's access to the broad matcher", () => {
  const after = replace(base(), "ci", { claimMatch: { issuer: gh, subjectPattern: "repo:acme/.*" } });
  const r = review(base(), after);
  expect(r.rows).toHaveLength(1);
  expect(r.rows[0]).toMatchObject({
    state: "gained",
    subtree: { path: "/platform" },
    matcherChanged: { to: { subjectPattern: "repo:acme/.*" } },
  });
  expect(r.rows[0]?.risks).toEqual(["broad-matcher"]);
});

test("a group moved under another parent: bindings above the new parent gain it, above the old one lose it", () => {
  const shared = `${ORG}/${seg(7)}`;
  const before = [
    ...base(),
    res("Group", "shared", { uid: shared, parentUid: ORG, name: "shared" }),
    res("Identity", "auditor", {
      uid: `${shared}/${seg(8)}`,
      groupUid: shared,
      name: "auditor",
      claimMatch: { issuer: gh, subject: "x" },
    }),
    res("RoleBinding", "auditor-viewer", {
      groupUid: shared,
      identityUid: `${shared}/${seg(8)}`,
      roleUid: VIEWER,
    }),
  ];
  // payments moves under shared: a replacement, its new uid unknown, its parent a known uid.
  const after = before.map((x) =>
    x.urn.endsWith("::payments")
      ? { ...x, props: { parentUid: shared, name: "payments", uid: PREVIEW_UNKNOWN } }
      : x,
  );
  const r = review(before, after);
  const auditor = r.rows.filter((x) => x.identity.name === "auditor");
  expect(auditor.map((x) => [x.state, x.subtree.path])).toEqual([["gained", "/shared/payments"]]);
  const ci = r.rows.filter((x) => x.identity.name === "ci");
  expect(ci.map((x) => [x.state, x.subtree.path])).toEqual([["lost", "/platform/payments"]]);
});

test("both type-token families are read", () => {
  const native = base().map((x) => ({
    ...x,
    type: x.type.replace("pulumi-nodejs:dynamic/irv:", "irv:iam:"),
  }));
  const after = [
    ...native,
    {
      ...res("RoleBinding", "x", { groupUid: ORG, identityUid: `${platform}/${seg(3)}`, roleUid: OWNER }),
      type: "irv:iam:RoleBinding",
    },
  ];
  const r = review(native, after);
  expect(r.rows[0]?.risks).toEqual(["owner-equivalent", "escalation", "root"]);
});

describe("pull tokens (irv.registry.PullToken: an identity and its binding)", () => {
  const pull = BUILT_IN_ROLE_CAPABILITIES["registry.pull"];
  const token = (family: "pulumi-nodejs:dynamic/irv" | "irv:registry", props: Record<string, unknown>) => ({
    urn: urn("PullToken", "k8s-pull", family),
    type: `${family}:PullToken`,
    props: { groupUid: payments, name: "k8s-pull", ...props },
  });

  test("a new pull token without roleUid gains registry.pull in its group, as a new identity, in both token families", () => {
    for (const family of ["pulumi-nodejs:dynamic/irv", "irv:registry"] as const) {
      const r = review(base(), [...base(), token(family, { uid: PREVIEW_UNKNOWN })]);
      expect(
        r.rows.map((x) => [x.state, x.identity.name, x.subtree.path, x.grant.binding, x.grant.role, x.risks]),
      ).toEqual([
        ["gained", "k8s-pull", "/platform/payments", "k8s-pull", "registry.pull", ["new-identity"]],
      ]);
      expect(r.rows[0]?.capabilities).toEqual([...pull].sort());
      expect(r.rows[0]?.allOf).toEqual({ role: "registry.pull", count: pull.length });
    }
  });

  test("an existing pull token is no change; its removal loses its access; a hand-made binding to its identity is found by uid", () => {
    const uid = `${payments}/${seg(9)}`;
    const REGISTRY_PULL = "4".repeat(40);
    const roles = [...ROLES, { uid: REGISTRY_PULL, name: "registry.pull", capabilities: [...pull] }];
    const existing = token("irv:registry", {
      uid,
      roleUid: REGISTRY_PULL,
      bindingUid: `${payments}/${seg(10)}`,
    });
    const models = (before: StackResource[], after: StackResource[]) => {
      const uidIndex = uidIndexOf([...before, ...after]);
      return reviewAccess(orgModelOf(before, { roles, uidIndex }), orgModelOf(after, { roles, uidIndex }));
    };
    expect(models([...base(), existing], [...base(), existing]).rows).toEqual([]);
    expect(models([...base(), existing], base()).rows.map((x) => [x.state, x.identity.name])).toEqual([
      ["lost", "k8s-pull"],
    ]);
    const byHand = res("RoleBinding", "k8s-pull-viewer-root", {
      groupUid: ORG,
      identityUid: uid,
      roleUid: VIEWER,
    });
    const r = models([...base(), existing], [...base(), existing, byHand]);
    expect(r.rows.map((x) => [x.identity.name, x.subtree.path, x.grant.role])).toEqual([
      ["k8s-pull", "/", "viewer"],
    ]);
    expect(r.rows[0]?.risks).toEqual(["root"]);
  });
});

describe("finding ids and approvals", () => {
  test("a finding id is a stable hash of identity, subtree and capability", () => {
    expect(findingId("i", "g", "groups.list")).toBe(findingId("i", "g", "groups.list"));
    expect(findingId("i", "g", "groups.list")).not.toBe(findingId("i", "g", "groups.create"));
    expect(findingId("i", "g", "groups.list")).toMatch(/^ar-[0-9a-f]{16}$/);
  });

  test("an approval covers its grant (identity, group, role) or its row id until the end of its day; expired ones say so", () => {
    const after = [
      ...base(),
      res("RoleBinding", "ci-owner", { groupUid: ORG, identityUid: `${platform}/${seg(3)}`, roleUid: OWNER }),
    ];
    const r = review(base(), after);
    expect(r.rows.filter(isRisky)).toHaveLength(1);
    expect(r.rows[0]?.allOf).toEqual({ role: "owner", count: CAPABILITIES.length });
    const file =
      "approvals:\n  - identity: ci\n    group: /\n    role: owner\n    approvedBy: alice\n    until: 2026-12-31\n";
    const approvals = parseApprovals(file);
    expect(
      unapprovedChanges(r, approvals, { failOn: "risky", now: new Date("2026-12-31T23:00:00Z") }),
    ).toEqual([]);
    const late = unapprovedChanges(r, approvals, { failOn: "risky", now: new Date("2027-01-01T00:00:01Z") });
    expect(late.map((u) => u.row)).toEqual([r.rows[0]?.id]);
    expect(late[0]?.grant).toEqual({ identity: "ci", group: "/", role: "owner" });
    expect(late[0]?.expired).toEqual(["2026-12-31"]);
    const byRow = [{ rows: [r.rows[0]!.id], approvedBy: "bob", until: "2999-01-01" }];
    expect(unapprovedChanges(r, byRow, { failOn: "risky", now: new Date() })).toEqual([]);
    // The row id is stable across reviews of the same change.
    expect(review(base(), after).rows[0]?.id).toBe(r.rows[0]?.id);
    // Deprecated: per-capability ids approve a row only when they name all of its capabilities.
    const ids = r.rows.flatMap((x) => x.findings.map((f) => f.id));
    const old = (f: string[]) => [{ findings: f, approvedBy: "bob", until: "2999-01-01" }];
    expect(unapprovedChanges(r, old(ids), { failOn: "risky", now: new Date() })).toEqual([]);
    expect(unapprovedChanges(r, old(ids.slice(1)), { failOn: "risky", now: new Date() })).toHaveLength(1);
    expect(deprecations(old(ids))).toEqual([expect.stringMatching(/deprecated/)]);
  });

  test("two new bindings giving the same capabilities are two rows, each approved on its own", () => {
    const ci = `${platform}/${seg(3)}`;
    const after = [
      ...base(),
      res("RoleBinding", "ci-owner", { groupUid: ORG, identityUid: ci, roleUid: OWNER }),
      res("RoleBinding", "ci-editor", { groupUid: ORG, identityUid: ci, roleUid: EDITOR }),
    ];
    const r = review(base(), after);
    expect(r.rows.map((x) => [x.grant.binding, x.allOf?.role])).toEqual([
      ["ci-editor", "editor"],
      ["ci-owner", "owner"],
    ]);
    const grant = { identity: "ci", group: "/", role: "owner", approvedBy: "a", until: "2999-01-01" };
    expect(
      unapprovedChanges(r, [grant], { failOn: "risky", now: new Date() }).map((u) => u.grant?.role),
    ).toEqual(["editor"]);
  });

  test("an invalid approvals file is one error naming the entry and field", () => {
    expect(() =>
      parseApprovals("approvals:\n  - findings: [ar-1]\n    approvedBy: a\n    until: 2026-12-31\n"),
    ).toThrow(/access-approvals\.yaml: approvals\.0\.findings\.0 is not a finding id/);
    expect(() =>
      parseApprovals(
        "approvals:\n  - identity: ci\n    role: owner\n    approvedBy: a\n    until: 2026-12-31\n",
      ),
    ).toThrow(/approvals\.0\.group is required with a grant \(identity, group and role\)/);
    expect(() => parseApprovals("approvals:\n  - approvedBy: a\n    until: 2026-12-31\n")).toThrow(
      /approvals\.0\.rows is missing/,
    );
    expect(() => parseApprovals("approvals: [")).toThrow(/is not valid YAML/);
    expect(parseApprovals("")).toEqual([]);
  });
});

test("an account association sharing its group's uid does not take the group's place in references", () => {
  // Regression: the association (id = its group's uid) was indexed too, so bindings in the group
  // pointed at it and lost their place in the tree.
  const withAssociation = [
    ...base(),
    res("AccountAssociations", "platform-accounts", { uid: platform, groupUid: platform }),
  ];
  const after = [
    ...withAssociation,
    res("RoleBinding", "ci-editor", {
      groupUid: platform,
      identityUid: `${platform}/${seg(3)}`,
      roleUid: EDITOR,
    }),
  ];
  const r = review(withAssociation, after);
  expect(r.rows.map((x) => [x.state, x.subtree.path])).toEqual([["gained", "/platform"]]);
});

// Issue 45: an external group role mapping is a grant to everyone in the identity provider's
// external group; the review could not see it.
test("a new mapping of an external group to owner: one gained row naming the provider and the group, risky as an owner binding is", () => {
  const idp = `${ORG}/${seg(7)}`;
  const provider = res("IdentityProvider", "corp-sso", { uid: idp, parentUid: ORG, name: "corp-sso" });
  const mapping = res(
    "ExternalGroupRoleMapping",
    "admins-owner",
    { identityProviderUid: PREVIEW_UNKNOWN, externalGroupId: "platform-admins", roleUid: OWNER, scope: ORG },
    { identityProviderUid: [provider.urn] },
  );
  const r = review([...base(), provider], [...base(), provider, mapping]);
  expect(
    r.rows.map((row) => [row.state, row.identity.name, row.subtree.path, row.grant.binding, row.grant.role]),
  ).toEqual([["gained", "platform-admins (external group of corp-sso)", "/", "admins-owner", "owner"]]);
  expect(r.rows[0]?.risks).toEqual(expect.arrayContaining(["owner-equivalent", "root"]));
  expect(unapprovedChanges(r, [], { failOn: "risky", now: new Date() }).length).toBe(1);
  // The same mapping, created: no change; removed: the group loses what it held.
  const created = replace([mapping], "admins-owner", { uid: `${idp}/${seg(8)}`, identityProviderUid: idp });
  expect(review([...base(), provider, ...created], [...base(), provider, ...created]).rows).toEqual([]);
  expect(
    review([...base(), provider, ...created], [...base(), provider]).rows.map((row) => row.state),
  ).toEqual(["lost"]);
});

// Regression (issue 45, found by sdk-access-review.test.ts): a mapping whose program leaves `scope`
// out (the documented default, the organization root) had no group in the plan, so its move from
// viewer to owner was a "maybe" row in an unknown group beside a "lost" row, not one risky row at the root.
test("a mapping made owner with its scope left out: one gained row at the root, its scope the provider's organization", () => {
  const idp = `${ORG}/${seg(7)}`;
  const provider = res("IdentityProvider", "corp-sso", { uid: idp, parentUid: ORG, name: "corp-sso" });
  const mapping = (roleUid: string, scope: unknown) =>
    res("ExternalGroupRoleMapping", "admins", {
      uid: scope === PREVIEW_UNKNOWN ? PREVIEW_UNKNOWN : `${idp}/${seg(8)}`,
      identityProviderUid: idp,
      externalGroupId: "platform-admins",
      roleUid,
      ...(scope === undefined ? {} : { scope }),
    });
  // Created: the scope as the service answered it; replaced by an owner mapping: unknown, or absent
  // (the dynamic providers' plan holds the inputs only).
  const before = [...base(), provider, mapping(VIEWER, ORG)];
  for (const scope of [PREVIEW_UNKNOWN, undefined]) {
    const r = review(before, [...base(), provider, mapping(OWNER, scope)]);
    expect(
      r.rows.map((row) => [row.state, row.identity.name, row.subtree.path, row.grant.group, row.grant.role]),
    ).toEqual([["gained", "platform-admins (external group of corp-sso)", "/", "/", "owner"]]);
    expect(r.rows[0]?.risks).toEqual(expect.arrayContaining(["owner-equivalent", "root"]));
  }
  // The provider made in the same update (its uid unknown): its group names the organization.
  const fresh = res("IdentityProvider", "corp-sso", {
    uid: PREVIEW_UNKNOWN,
    parentUid: ORG,
    name: "corp-sso",
  });
  const made = res(
    "ExternalGroupRoleMapping",
    "admins",
    {
      uid: PREVIEW_UNKNOWN,
      identityProviderUid: PREVIEW_UNKNOWN,
      externalGroupId: "platform-admins",
      roleUid: OWNER,
    },
    { identityProviderUid: [fresh.urn] },
  );
  const r = review(base(), [...base(), fresh, made]);
  expect(r.rows.map((row) => [row.state, row.subtree.path, row.grant.role])).toEqual([
    ["gained", "/", "owner"],
  ]);
});
