// The README's snippets of the IAM kinds (custom roles, identity variants, identity providers,
// invites, account associations, static get), as one program that test/e2e/examples/readme.test.ts
// runs against the emulator; test/unit/readme.test.ts checks every README block appears here or in
// examples/readme verbatim.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const orgUid = new pulumi.Config().require("orgUid");
const platform = new irv.iam.Group("platform", { parentUid: orgUid, description: "Platform engineering" });
const payments = new irv.iam.Group("team-payments", { parentUid: platform.uid, description: "Payments" });
const viewer = irv.iam.getRoleOutput({ name: "viewer" });

// docs/resources.md: "Custom roles"
const auditor = new irv.iam.Role("auditor", {
  parentUid: platform.uid,
  description: "Reads the organization tree",
  capabilities: ["groups.list", "identity.list", "role_bindings.list"],
});

// docs/resources.md: "Resources" (get)
export const auditorCapabilities = irv.iam.Role.get("auditor-as-read", auditor.id).capabilities;

// docs/resources.md: "Identity variants"
const deploy = new irv.iam.Identity("payments-deploy", {
  groupUid: payments.uid,
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subjectPattern: "repo:acme/payments:environment:(staging|production)",
  },
});
const backup = new irv.iam.Identity("backup-job", {
  groupUid: platform.uid,
  awsIdentity: {
    awsAccount: "123456789012",
    arn: "arn:aws:iam::123456789012:role/backup",
    userIdPattern: "AROA.*",
  },
});

// docs/resources.md: "Identity providers"
const sso = new irv.iam.IdentityProvider("sso", {
  parentUid: platform.uid,
  defaultRoleUid: auditor.uid,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "irv",
    clientSecret: new pulumi.Config().requireSecret("ssoClientSecret"),
  },
});
const cliLogin = new irv.iam.IdentityProvider("cli-login", {
  parentUid: platform.uid,
  defaultRoleUid: auditor.uid,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "irv-cli",
    pkceEnabled: true,
  },
});

// docs/resources.md: "Group invites"
const invite = new irv.iam.GroupInvite("new-payments-dev", {
  groupUid: payments.uid,
  roleUid: viewer.uid,
  ttl: "168h",
  email: "dev@example.com",
  singleUse: true,
});
export const inviteCode = invite.code;

// docs/resources.md: "Account associations"
new irv.iam.AccountAssociations("platform-accounts", {
  groupUid: platform.uid,
  amazon: { account: "123456789012" },
  github: { appInstallations: { "123456": { installations: [{ installationId: "4242" }] } } },
});

export const deployUid = deploy.uid;
export const backupUid = backup.uid;
export const ssoUid = sso.uid;
export const cliLoginUid = cliLogin.uid;
