// Quickstart: an organization tree (platform → teams), one CI identity per team trusted for its
// GitHub Actions repository, viewer bindings through getRole, a custom role for the platform's
// release workflows (any release branch, by subject pattern), and the registry and advisories the
// teams can see. Run it against the local emulator with `npm run demo`.
import * as pulumi from "@pulumi/pulumi";
import * as irv from "pulumi-irv";

const config = new pulumi.Config();
// The organization (root group) uid; the emulator prints it as `orgUid` when it starts.
const orgUid = config.require("orgUid");
const githubOrg = config.get("githubOrg") ?? "acme";
const teams = config.getObject<string[]>("teams") ?? ["payments", "search"];

const platform = new irv.iam.Group("platform", { parentUid: orgUid, description: "Platform engineering" });
const viewer = irv.iam.getRoleOutput({ name: "viewer" });

const perTeam = teams.map((team) => {
  const group = new irv.iam.Group(`team-${team}`, {
    parentUid: platform.uid,
    description: `The ${team} team`,
  });
  const ci = new irv.iam.Identity(`${team}-ci`, {
    groupUid: group.uid,
    description: `GitHub Actions of ${githubOrg}/${team} on main`,
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subject: `repo:${githubOrg}/${team}:ref:refs/heads/main`,
    },
  });
  const binding = new irv.iam.RoleBinding(`${team}-ci-viewer`, {
    groupUid: group.uid,
    identityUid: ci.uid,
    roleUid: viewer.uid,
  });
  return { team, group, ci, binding };
});

// A risky edit for the demo's access review: one team's CI identity made owner of the whole
// organization (`pulumi config set rootOwner payments`). Unset, no such binding exists.
const rootOwner = perTeam.find((t) => t.team === config.get("rootOwner"));
if (rootOwner !== undefined)
  new irv.iam.RoleBinding(`${rootOwner.team}-ci-root-owner`, {
    groupUid: orgUid,
    identityUid: rootOwner.ci.uid,
    roleUid: irv.iam.getRoleOutput({ name: "owner" }).uid,
  });

// A custom role with only what a release workflow reads, bound to an identity that any
// `release-*` branch of the platform repository may assume (the subject is an anchored pattern).
const releaseReader = new irv.iam.Role("release-reader", {
  parentUid: platform.uid,
  description: "Reads groups, repos and tags for release workflows",
  capabilities: ["groups.list", "repo.list", "tag.list", "advisories.list"],
});
const escaped = githubOrg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const release = new irv.iam.Identity("platform-release", {
  groupUid: platform.uid,
  description: `GitHub Actions of ${githubOrg}/platform on release branches`,
  claimMatch: {
    issuer: "https://token.actions.githubusercontent.com",
    subjectPattern: `repo:${escaped}/platform:ref:refs/heads/release-.+`,
  },
});
new irv.iam.RoleBinding("platform-release-reader", {
  groupUid: platform.uid,
  identityUid: release.uid,
  roleUid: releaseReader.uid,
});

const repos = irv.registry.getReposOutput({ descendantsOf: orgUid, orderBy: "name" });
const advisories = irv.vulnerabilities.getAdvisoriesOutput({ descendantsOf: orgUid });

export const platformUid = platform.uid;
export const teamGroups = Object.fromEntries(perTeam.map((t) => [t.team, t.group.uid]));
export const ciIdentities = Object.fromEntries(perTeam.map((t) => [t.team, t.ci.uid]));
export const ciRoles = Object.fromEntries(perTeam.map((t) => [t.team, t.binding.role.name]));
export const releaseIdentity = release.uid;
export const releaseCapabilities = releaseReader.capabilities;
export const repoNames = repos.repos.apply((r) => r.map((x) => x.name));
export const advisoryCount = advisories.advisories.apply((a) => a.length);
// An advisory names its vulnerability by aliases (CVE, GHSA…) and scores it in `severities`.
export const advisoryAliases = advisories.advisories.apply((a) =>
  [...new Set(a.flatMap((x) => x.aliases))].sort(),
);
// Those whose CVSS v3 vector says the attack comes over the network (AV:N), by CGA id.
export const networkExploitable = advisories.advisories.apply((a) =>
  a
    .filter((x) => x.severities.some((s) => s.type === "TYPE_CVSS_V3" && s.score.includes("/AV:N/")))
    .map((x) => x.advisoryId)
    .sort(),
);
