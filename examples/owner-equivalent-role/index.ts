// Owner under another name: a custom role with every capability of the built-in owner role, bound
// to a deploy pipeline in the root organization. Nothing here is refused, so the preview runs to the
// end and the policy pack's stack check warns about the binding (`no-broad-owner-binding`, see
// docs/policy-pack.md): the binding only knows the new role by a uid that the preview cannot know
// yet, so the check follows the binding's `roleUid` back to the role and reads its capabilities.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const config = new pulumi.Config();
const orgUid = config.require("orgUid");

const admins = new irv.iam.Role("org-admins", {
  parentUid: orgUid,
  description: "Everything the owner role can do",
  capabilities: irv.iam.getRoleOutput({ name: "owner" }).capabilities,
});
const deploy = new irv.iam.Identity("deploy-ci", {
  groupUid: orgUid,
  description: "The deploy pipeline",
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subject: "repo:acme/deploy:ref:refs/heads/main",
  },
});
new irv.iam.RoleBinding("deploy-ci-admins", {
  groupUid: orgUid,
  identityUid: deploy.uid,
  roleUid: admins.uid,
});

export const roleUid = admins.uid;
