// Workload identity: this program holds no API token. Its pipeline presents the workload's OIDC
// token (irv:identityTokenFile, or the CI system's own: GitHub Actions, GitLab CI) to assume an
// identity (irv:identity) — the provider exchanges it at irv:authUrl for a one-hour API token and
// exchanges again when it nears expiry.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const config = new pulumi.Config();
// The team group the pipeline identity manages (it holds a custom role there granting groups.* and
// identity.*: the built-in editor has no IAM writes).
const teamUid = config.require("teamUid");

const service = new irv.iam.Group("checkout-service", {
  parentUid: teamUid,
  description: "Managed by the team's pipeline",
});
const deployer = new irv.iam.Identity("checkout-deployer", {
  groupUid: service.uid,
  description: "Deploy job of the checkout service",
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subject: "repo:acme/checkout:environment:production",
  },
});

export const serviceUid = service.uid;
export const deployerUid = deployer.uid;
