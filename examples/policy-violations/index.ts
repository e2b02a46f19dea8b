// A program with the mistakes the policy pack catches on a pull request: an identity trusting a
// plain-http development issuer and named against the convention, the owner role granted on the
// whole organization, an identity any repository's workflow could assume, a month-long invite, a
// team role that may hand out access, a group name the API would refuse and, behind it, a plain-http
// identity provider. `pulumi preview --policy-pack policy` blocks it (see docs/policy-pack.md). Config:
// `orgUid`, and any secret `ssoClientSecret`.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const config = new pulumi.Config();
const orgUid = config.require("orgUid");

const ci = new irv.iam.Identity("payments_ci", {
  groupUid: orgUid,
  claimMatch: { issuer: "http://localhost:8080/oidc", subject: "repo:acme/payments:ref:refs/heads/main" },
});
const owner = irv.iam.getRoleOutput({ name: "owner" });
const binding = new irv.iam.RoleBinding("payments-ci-owner", {
  groupUid: orgUid,
  identityUid: ci.uid,
  roleUid: owner.uid,
});

// Any repository of the organization could assume this one: its subject pattern spans repositories.
const deploy = new irv.iam.Identity("payments-deploy", {
  groupUid: orgUid,
  claimMatch: { issuer: "https://token.actions.githubusercontent.com", subjectPattern: "repo:acme/.*" },
});

// An invite that stays valid for a month.
const invite = new irv.iam.GroupInvite("contractor", { groupUid: orgUid, roleUid: owner.uid, ttl: "720h" });

// A team's own role that may define roles and bind them: the team could hand out access itself.
const platform = new irv.iam.Group("platform", { parentUid: orgUid, description: "The platform team" });
const platformAdmin = new irv.iam.Role("platform-admin", {
  parentUid: platform.uid,
  capabilities: ["groups.list", "role_bindings.create", "roles.create"],
});

// The API refuses this name, so the provider's own check stops the preview at this resource; the
// dependency only makes the preview reach it last, after the policies saw everything else.
const team = new irv.iam.Group(
  "payments",
  { parentUid: orgUid, name: config.get("teamName") ?? "Team Payments" },
  { dependsOn: [ci, binding, deploy, invite, platformAdmin] },
);

// Single sign-on through an issuer reached over plain http. The API refuses that too, and a preview
// stops at the first resource the provider refuses, so this one comes after the team: once the
// team's name is fixed (`pulumi config set teamName payments`), the next preview stops here.
new irv.iam.IdentityProvider(
  "sso",
  {
    parentUid: orgUid,
    defaultRoleUid: irv.iam.getRoleOutput({ name: "viewer" }).uid,
    oidc: {
      issuer: "http://sso.example.com",
      clientId: "irv",
      clientSecret: config.requireSecret("ssoClientSecret"),
    },
  },
  { dependsOn: [team] },
);

export const teamUid = team.uid;
