// The snippets of docs/pull-tokens.md as one program that test/e2e/examples/readme.test.ts runs
// against the emulator; test/unit/readme.test.ts checks every block of the guide appears here.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const orgUid = new pulumi.Config().require("orgUid");
const team = new irv.iam.Group("team-payments", { parentUid: orgUid, description: "Payments" });

// docs/pull-tokens.md: "Pull tokens"
const pull = new irv.registry.PullToken("payments-cluster", {
  groupUid: team.uid,
  description: "Image pulls of the payments cluster",
  ttl: "720h",
  rotateBefore: "168h",
});
export const pullUsername = pull.username;
export const dockerConfigJson = pull.dockerConfigJson; // a secret

// docs/pull-tokens.md: "Built-in registry roles"
const apkPull = irv.iam.getRoleOutput({ name: "apk.pull" });
const packages = new irv.registry.PullToken("payments-apks", {
  groupUid: team.uid,
  roleUid: apkPull.uid,
});
export const apkPullRole = packages.roleUid;

// docs/pull-tokens.md: "CI identity presets"
const deploy = new irv.iam.Identity("payments-deploy", {
  groupUid: team.uid,
  claimMatch: irv.iam.githubActionsClaimsOutput({ repository: "acme/payments", environment: "production" }),
});
const release = new irv.iam.Identity("payments-release", {
  groupUid: team.uid,
  claimMatch: irv.iam.gitlabCiClaimsOutput({ project: "acme/payments", ref: "main", refType: "branch" }),
});
const backup = new irv.iam.Identity("payments-backup", {
  groupUid: team.uid,
  awsIdentity: irv.iam.awsRoleIdentityOutput({ account: "123456789012", role: "payments-backup" }),
});
export const presetIdentities = [deploy.uid, release.uid, backup.uid];
