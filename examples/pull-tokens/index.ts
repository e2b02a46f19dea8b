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
