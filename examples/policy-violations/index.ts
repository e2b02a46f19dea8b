// A program with the mistakes the policy pack catches on a pull request: a group name the API
// refuses and a name outside the org's convention, an identity trusting an http issuer, and owner
// granted on the whole organization. `pulumi preview --policy-pack policy` stops it.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const config = new pulumi.Config();
const orgUid = config.require("orgUid");

const team = new irv.iam.Group("payments", { parentUid: orgUid, name: "Team Payments" });
const ci = new irv.iam.Identity("payments_ci", {
  groupUid: orgUid,
  claimMatch: { issuer: "http://issuer.example.com", subject: "ci" },
});
new irv.iam.RoleBinding("payments-ci-owner", {
  groupUid: orgUid,
  identityUid: ci.uid,
  roleUid: config.get("ownerRoleUid") ?? "owner-role-uid",
});

export const teamUid = team.uid;
