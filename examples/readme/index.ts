// The TypeScript snippets of README.md, as one program that test/e2e/examples/readme.test.ts runs
// against the emulator; test/unit/readme.test.ts checks every README block appears here verbatim.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const orgUid = new pulumi.Config().require("orgUid");

// README: "A first program"
const platform = new irv.iam.Group("platform", { parentUid: orgUid, description: "Platform engineering" });
const payments = new irv.iam.Group("team-payments", { parentUid: platform.uid });
const ci = new irv.iam.Identity("payments-ci", {
  groupUid: payments.uid,
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subject: "repo:acme/payments:ref:refs/heads/main",
  },
});
const viewer = irv.iam.getRoleOutput({ name: "viewer" });
new irv.iam.RoleBinding("payments-ci-viewer", {
  groupUid: payments.uid,
  identityUid: ci.uid,
  roleUid: viewer.uid,
});

// docs/resources.md: "Data sources"
const roleNames = irv.iam.getRolesOutput({ orderBy: "name" }).roles.apply((r) => r.map((x) => x.name));
const repos = irv.registry.getReposOutput({ descendantsOf: orgUid, orderBy: "name" });
// Advisories have no name: find them by the vulnerability ids they cover (aliases) or their CGA ids.
const log4shell = irv.vulnerabilities.getAdvisoriesOutput({
  descendantsOf: orgUid,
  aliases: ["CVE-2021-44228"],
});
export const log4shellArtifacts = log4shell.advisories.apply((a) => a.map((x) => x.artifactName));
export const owner = pulumi.output(irv.iam.getRole({ name: "owner" })).apply((r) => r.description);

// docs/resources.md: "Resources" (import)
const legacyUid = new pulumi.Config().get("legacyUid");
if (legacyUid) new irv.iam.Group("legacy", { parentUid: orgUid, name: "legacy" }, { import: legacyUid });

export const roles = roleNames;
export const repoNames = repos.repos.apply((r) => r.map((x) => x.name));
export const viewerUid = viewer.uid;
