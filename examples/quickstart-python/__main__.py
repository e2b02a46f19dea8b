"""Quickstart in Python: the same organization tree as the TypeScript quickstart (examples/quickstart).

A platform group, one group per team with a CI identity trusted for its GitHub Actions repository on
main and a viewer binding through the ``get_role`` lookup, and a custom role for the platform's release
workflows bound to an identity any ``release-*`` branch may assume (the subject is an anchored pattern).
"""

import pulumi
import pulumi_irv as irv

config = pulumi.Config()
# The organization (root group) uid; the emulator prints it as `orgUid` when it starts.
org_uid = config.require("orgUid")
github_issuer = "https://token.actions.githubusercontent.com"

platform = irv.iam.Group("platform", parent_uid=org_uid, description="Platform engineering")
viewer = irv.iam.get_role_output(name="viewer")

team_groups: dict[str, pulumi.Output[str]] = {}
for team in ["payments", "search"]:
    group = irv.iam.Group(f"team-{team}", parent_uid=platform.uid, description=f"The {team} team")
    ci = irv.iam.Identity(
        f"{team}-ci",
        group_uid=group.uid,
        description=f"GitHub Actions of acme/{team} on main",
        claim_match={"issuer": github_issuer, "subject": f"repo:acme/{team}:ref:refs/heads/main"},
    )
    irv.iam.RoleBinding(f"{team}-ci-viewer", group_uid=group.uid, identity_uid=ci.uid, role_uid=viewer.uid)
    team_groups[team] = group.uid

# A custom role with only what a release workflow reads.
release_reader = irv.iam.Role(
    "release-reader",
    parent_uid=platform.uid,
    description="Reads groups, repos and tags for release workflows",
    capabilities=["groups.list", "repo.list", "tag.list", "advisories.list"],
)
release = irv.iam.Identity(
    "platform-release",
    group_uid=platform.uid,
    description="GitHub Actions of acme/platform on release branches",
    claim_match={"issuer": github_issuer, "subject_pattern": "repo:acme/platform:ref:refs/heads/release-.+"},
)
irv.iam.RoleBinding(
    "platform-release-reader", group_uid=platform.uid, identity_uid=release.uid, role_uid=release_reader.uid
)

pulumi.export("platformUid", platform.uid)
pulumi.export("teamGroups", team_groups)
