"""The organization program under test: a platform group, a team group under it and the team's CI
identity, trusted for its GitHub Actions workflow on main."""

import pulumi
import pulumi_irv as irv


def program(org_uid: str) -> None:
    platform = irv.iam.Group("platform", parent_uid=org_uid, description="Platform engineering")
    team = irv.iam.Group("team-payments", parent_uid=platform.uid, description="The payments team")
    ci = irv.iam.Identity(
        "payments-ci",
        group_uid=team.uid,
        claim_match={
            "issuer": "https://token.actions.githubusercontent.com",
            "subject": "repo:acme/payments:ref:refs/heads/main",
        },
    )
    pulumi.export("platformUid", platform.uid)
    pulumi.export("teamUid", team.uid)
    pulumi.export("ciUid", ci.uid)
