// The access-broadening gate on hand-built policy resources: blocks risky access unless approved,
// judges only gains when given the state before, reads props unknown at preview and both token families.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PolicyResource, ReportViolation, StackValidationArgs } from "@pulumi/policy";
import { expect, test } from "vitest";
import type { AccessBroadeningConfig } from "../../../policy/policies/index.js";
import { accessBroadening } from "../../../policy/policies/index.js";
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

async function run(resources: PolicyResource[], config: AccessBroadeningConfig): Promise<string[]> {
  const out: string[] = [];
  const args = { resources, getConfig: () => ({ roles, ...config }) } as unknown as StackValidationArgs;
  await (accessBroadening.validateStack as (a: StackValidationArgs, r: ReportViolation) => Promise<void>)(
    args,
    (m) => out.push(m),
  );
  return out;
}
const idsIn = (messages: string[]) => messages.flatMap((m) => m.match(/ar-[0-9a-f]{16}/g) ?? []);

test("an owner binding at the root is blocked, as one violation naming its findings, unless approved", async () => {
  const blocked = await run([team, ci, viewerOnTeam, ownerAtRoot], {});
  // One violation per row, naming every capability and finding id.
  expect(blocked).toHaveLength(1);
  expect(blocked[0]).toMatch(
    /^ci gained account_associations\.create, .* on \/ \[owner-equivalent, .*root.*\]: not approved \(findings ar-/,
  );
  expect(idsIn(blocked)).toHaveLength(CAPABILITIES.length);
  const approvals = [{ findings: idsIn(blocked), approvedBy: "alice", until: "2999-01-01" }];
  expect(await run([team, ci, viewerOnTeam, ownerAtRoot], { approvals })).toEqual([]);

  const dir = mkdtempSync(join(tmpdir(), "approvals-"));
  const file = join(dir, "access-approvals.yaml");
  writeFileSync(
    file,
    `approvals:\n  - findings: [${idsIn(blocked).join(", ")}]\n    approvedBy: alice\n    until: 2000-01-01\n`,
  );
  const expired = await run([team, ci, viewerOnTeam, ownerAtRoot], { approvalsFile: file });
  expect(expired[0]).toMatch(/approvals expired 2000-01-01/);
});

test("with the state before, only gains count: unchanged risky access passes, a lock-out is caught", async () => {
  const dir = mkdtempSync(join(tmpdir(), "before-"));
  const before = join(dir, "state.json");
  const state = (rs: PolicyResource[]) =>
    JSON.stringify({
      deployment: { resources: rs.map((r) => ({ urn: r.urn, type: r.type, inputs: r.props })) },
    });
  writeFileSync(before, state([team, ci, viewerOnTeam, ownerAtRoot]));
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
  const messages = await run([team, deploy, bind], {});
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.every((m) => m.startsWith("deploy gained ") && m.includes("[new-identity]"))).toBe(true);
});
