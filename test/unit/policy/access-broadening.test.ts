// The access-broadening gate on hand-built policy resources: blocks risky access unless approved,
// judges only gains when given the state before, reads props unknown at preview and both token families.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PolicyResource, ReportViolation, StackValidationArgs } from "@pulumi/policy";
import { expect, test } from "vitest";
import type { AccessBroadeningConfig } from "../../../policy/policies/index.js";
import { accessBroadening, accessBroadeningAdvisory } from "../../../policy/policies/index.js";
import { CAPABILITIES } from "../../../sdk/index.js";
import { withUnknown } from "./run-policy.js";

const ORG = "a".repeat(40);
const TEAM = `${ORG}/${"0".repeat(15)}1`;
const CI = `${TEAM}/${"0".repeat(15)}2`;
const OWNER = "3".repeat(40);
const VIEWER = "1".repeat(40);
const roles = [
  { uid: OWNER, name: "owner", capabilities: [...CAPABILITIES] },
  { uid: VIEWER, name: "viewer", capabilities: CAPABILITIES.filter((c) => c.endsWith(".list")) },
];
const res = (
  cls: string,
  name: string,
  props: Record<string, unknown>,
  family = "pulumi-nodejs:dynamic/irv",
) =>
  ({
    type: `${family}:${cls}`,
    name,
    urn: `urn:pulumi:dev::p::${family}:${cls}::${name}`,
    props,
    propertyDependencies: {},
    dependencies: [],
  }) as unknown as PolicyResource;

const team = res("Group", "team", { uid: TEAM, parentUid: ORG, name: "team" });
const ci = res("Identity", "ci", {
  uid: CI,
  groupUid: TEAM,
  name: "ci",
  claimMatch: { issuer: "https://i", subject: "s" },
});
const viewerOnTeam = res("RoleBinding", "ci-viewer", { groupUid: TEAM, identityUid: CI, roleUid: VIEWER });
const ownerAtRoot = res("RoleBinding", "ci-owner", { groupUid: ORG, identityUid: CI, roleUid: OWNER });

const stateFile = (rs: PolicyResource[]) => {
  const file = join(mkdtempSync(join(tmpdir(), "before-")), "state.json");
  writeFileSync(
    file,
    JSON.stringify({
      deployment: { resources: rs.map((r) => ({ urn: r.urn, type: r.type, inputs: r.props })) },
    }),
  );
  return file;
};

// Runs access-broadening then its advisory twin, as the pack does: what each reported.
async function both(resources: PolicyResource[], config: AccessBroadeningConfig) {
  const args = { resources, getConfig: () => ({ roles, ...config }) } as unknown as StackValidationArgs;
  const validate = (p: typeof accessBroadening, out: string[]) =>
    (p.validateStack as (a: StackValidationArgs, r: ReportViolation) => Promise<void>)(args, (m) =>
      out.push(m),
    );
  const mandatory: string[] = [];
  const advisory: string[] = [];
  await validate(accessBroadening, mandatory);
  await validate(accessBroadeningAdvisory, advisory);
  return { mandatory, advisory };
}
// The mandatory violations, the stack's state before being `before` (resources) unless the config names a file.
async function run(
  resources: PolicyResource[],
  config: AccessBroadeningConfig,
  before: PolicyResource[] = [team, ci, viewerOnTeam],
): Promise<string[]> {
  return (await both(resources, { before: stateFile(before), ...config })).mandatory;
}
const rowIn = (messages: string[]) => messages.flatMap((m) => m.match(/ag-[0-9a-f]{16}/g) ?? []);

test("an owner binding at the root is one violation (all of owner), approved by its grant in one entry", async () => {
  const blocked = await run([team, ci, viewerOnTeam, ownerAtRoot], {});
  expect(blocked).toHaveLength(1);
  expect(blocked[0]).toMatch(
    /^ci gained all of owner \(\d+\) on \/ through ci-owner → owner \[owner-equivalent, .*root.*\]: not approved \(row ag-[0-9a-f]{16}\)\. Narrow the change, or approve it in \S*access-approvals\.yaml.*: - \{ identity: "ci", group: "\/", role: "owner", approvedBy/,
  );
  const grant = { identity: "ci", group: "/", role: "owner", approvedBy: "alice", until: "2999-01-01" };
  expect(await run([team, ci, viewerOnTeam, ownerAtRoot], { approvals: [grant] })).toEqual([]);
  // By uids too, and by the row id.
  const byUid = { ...grant, identity: CI, group: ORG, role: OWNER };
  expect(await run([team, ci, viewerOnTeam, ownerAtRoot], { approvals: [byUid] })).toEqual([]);
  const byRow = { rows: rowIn(blocked), approvedBy: "alice", until: "2999-01-01" };
  expect(await run([team, ci, viewerOnTeam, ownerAtRoot], { approvals: [byRow] })).toEqual([]);
  // Another role on the same grant is not approved by it.
  expect(
    await run([team, ci, viewerOnTeam, ownerAtRoot], { approvals: [{ ...grant, role: "viewer" }] }),
  ).toHaveLength(1);

  const file = join(mkdtempSync(join(tmpdir(), "approvals-")), "access-approvals.yaml");
  writeFileSync(
    file,
    "approvals:\n  - identity: ci\n    group: /\n    role: owner\n    approvedBy: alice\n    until: 2000-01-01\n",
  );
  const expired = await run([team, ci, viewerOnTeam, ownerAtRoot], { approvalsFile: file });
  expect(expired[0]).toMatch(/approvals expired 2000-01-01/);
  expect(expired[0]).toContain(`approve it in ${file}:`);
});

test("per-capability finding ids still approve, with a deprecation line from the advisory twin", async () => {
  const before = stateFile([team, ci, viewerOnTeam]);
  const { mandatory } = await both([team, ci, viewerOnTeam, ownerAtRoot], { before });
  // Today's ids: one per capability of the row.
  const { reviewAccess, orgModelOf, uidIndexOf } = await import("../../../review/index.js");
  const sr = (r: PolicyResource) => ({ urn: r.urn, type: r.type, props: r.props });
  const b = [team, ci, viewerOnTeam].map(sr);
  const a = [team, ci, viewerOnTeam, ownerAtRoot].map(sr);
  const idx = uidIndexOf([...b, ...a]);
  const review = reviewAccess(
    orgModelOf(b, { roles, uidIndex: idx }),
    orgModelOf(a, { roles, uidIndex: idx }),
  );
  const ids = review.rows.flatMap((r) => r.findings.map((f) => f.id));
  expect(ids).toHaveLength(CAPABILITIES.length);
  expect(mandatory).toHaveLength(1);
  const file = join(mkdtempSync(join(tmpdir(), "approvals-")), "access-approvals.yaml");
  writeFileSync(
    file,
    `approvals:\n  - findings: [${ids.join(", ")}]\n    approvedBy: alice\n    until: 2999-01-01\n`,
  );
  const old = await both([team, ci, viewerOnTeam, ownerAtRoot], { before, approvalsFile: file });
  expect(old.mandatory).toEqual([]);
  expect(old.advisory).toEqual([
    expect.stringMatching(
      /1 entry names per-capability finding ids .*deprecated.*rows: \[ag-…\].*identity, group, role/,
    ),
  ]);
});

test("without the state before and no pulumi command to read it, findings are advisory after one line saying how to give it", async () => {
  const { mandatory, advisory } = await both([team, ci, viewerOnTeam, ownerAtRoot], {});
  expect(mandatory).toEqual([]);
  expect(advisory[0]).toMatch(
    /^access-broadening could not read the stack's state before this change \(.*\), so its findings are advisory: give it the state with `pulumi stack export > before.json` and `before` in the policy config/,
  );
  // Every risky access of the stack: the viewer binding is not risky, the owner one is.
  expect(advisory.slice(1)).toEqual([expect.stringMatching(/^ci gained all of owner/)]);
});

test("with the state before, only gains count: unchanged risky access passes, a lock-out is caught", async () => {
  const before = stateFile([team, ci, viewerOnTeam, ownerAtRoot]);
  expect(await run([team, ci, viewerOnTeam, ownerAtRoot], { before })).toEqual([]);
  const lockOut = await run([team, ci, viewerOnTeam], { before });
  expect(lockOut).toHaveLength(1);
  expect(lockOut[0]).toMatch(/^lock-out: no owner-equivalent binding left at the root \(removed: ci-owner\)/);
  expect(await run([team, ci, viewerOnTeam], { before, riskClasses: ["root"] })).toEqual([]);
});

test("a new binding whose identity is unknown at preview is resolved through its property dependency", async () => {
  const deploy = res(
    "Identity",
    "deploy",
    withUnknown({ groupUid: TEAM, name: "deploy", claimMatch: { issuer: "https://i", subject: "d" } }, "uid"),
    "irv:iam",
  );
  const bind = res(
    "RoleBinding",
    "deploy-viewer",
    withUnknown({ groupUid: TEAM, roleUid: VIEWER }, "identityUid"),
    "irv:iam",
  );
  (bind.propertyDependencies as Record<string, PolicyResource[]>).identityUid = [deploy];
  const messages = await run([team, deploy, bind], {}, [team]);
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.every((m) => m.startsWith("deploy gained ") && m.includes("[new-identity]"))).toBe(true);
});

// Issue 45: a mapping of an identity provider's external group to a role grants that role to the
// group's members; the gate counts it as it counts a binding.
test("a new mapping of an external group to owner is blocked as an owner binding is, and approved by its grant", async () => {
  const IDP = `${ORG}/${"0".repeat(15)}7`;
  const sso = res("IdentityProvider", "sso", { uid: IDP, parentUid: ORG, name: "corp-sso" }, "irv:iam");
  const mapping = res(
    "ExternalGroupRoleMapping",
    "admins-owner",
    { identityProviderUid: IDP, externalGroupId: "admins", roleUid: OWNER, scope: ORG },
    "irv:iam",
  );
  const blocked = await run([team, ci, viewerOnTeam, sso, mapping], {}, [team, ci, viewerOnTeam, sso]);
  expect(blocked).toHaveLength(1);
  expect(blocked[0]).toMatch(
    /^admins \(external group of corp-sso\) gained all of owner \(\d+\) on \/ through admins-owner → owner \[owner-equivalent, .*root.*\]: not approved/,
  );
  const grant = {
    identity: "admins (external group of corp-sso)",
    group: "/",
    role: "owner",
    approvedBy: "alice",
    until: "2999-01-01",
  };
  expect(
    await run([team, ci, viewerOnTeam, sso, mapping], { approvals: [grant] }, [team, ci, viewerOnTeam, sso]),
  ).toEqual([]);
});
