// The TypeScript snippets of README.md, as one program that test/e2e/examples/readme.test.ts runs
// against the emulator; test/unit/readme.test.ts checks every README block appears here verbatim.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const orgUid = new pulumi.Config().require("orgUid");

// README: "Installing in your own project"
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

// README: "Custom roles"
const auditor = new irv.iam.Role("auditor", {
  parentUid: platform.uid,
  description: "Reads the organization tree",
  capabilities: ["groups.list", "identity.list", "role_bindings.list"],
});

// README: "Resources" (get)
export const auditorCapabilities = irv.iam.Role.get("auditor-as-read", auditor.id).capabilities;

// README: "Identity variants"
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
    awsArn: "arn:aws:iam::123456789012:role/backup",
    awsUserIdPattern: "AROA.*",
  },
});

// README: "Identity providers"
const sso = new irv.iam.IdentityProvider("sso", {
  parentUid: platform.uid,
  defaultRoleUid: auditor.uid,
  oidc: {
    issuer: "https://login.example.com",
    clientId: "irv",
    clientSecret: new pulumi.Config().requireSecret("ssoClientSecret"),
  },
});

// README: "Group invites"
const invite = new irv.iam.GroupInvite("new-payments-dev", {
  groupUid: payments.uid,
  roleUid: viewer.uid,
  ttl: "168h",
  email: "dev@example.com",
  singleUse: true,
});
export const inviteCode = invite.code;

// README: "Account associations"
new irv.iam.AccountAssociations("platform-accounts", {
  groupUid: platform.uid,
  amazon: { account: "123456789012" },
  github: { installations: [{ id: 4242 }] },
});

// README: "Data sources"
const roleNames = irv.iam.getRolesOutput({ orderBy: "name" }).roles.apply((r) => r.map((x) => x.name));
const repos = irv.registry.getReposOutput({ descendantsOf: orgUid, orderBy: "name" });
const advisories = irv.vulnerabilities.getAdvisoriesOutput({ descendantsOf: orgUid });
export const critical = advisories.advisories.apply((a) => a.filter((x) => x.severity === "CRITICAL").length);
export const owner = pulumi.output(irv.iam.getRole({ name: "owner" })).apply((r) => r.description);

// README: "Resources" (import)
const legacyUid = new pulumi.Config().get("legacyUid");
if (legacyUid) new irv.iam.Group("legacy", { parentUid: orgUid, name: "legacy" }, { import: legacyUid });

export const roles = roleNames;
export const repoNames = repos.repos.apply((r) => r.map((x) => x.name));
export const viewerUid = viewer.uid;
export const deployUid = deploy.uid;
export const backupUid = backup.uid;
export const ssoUid = sso.uid;
