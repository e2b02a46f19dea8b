// The organization program under test: a platform group, a team group under it and the team's CI
// identity, trusted for its GitHub Actions workflow on main.
import * as irv from "pulumi-irv";

/**
 * The program for an organization: what an inline Automation API stack runs.
 *
 * @example
 * LocalWorkspace.createOrSelectStack({ stackName: "test", projectName: "irv-org", program: program(orgUid) });
 */
export function program(orgUid: string) {
  return async () => {
    const platform = new irv.iam.Group("platform", {
      parentUid: orgUid,
      description: "Platform engineering",
    });
    const team = new irv.iam.Group("team-payments", {
      parentUid: platform.uid,
      description: "The payments team",
    });
    const ci = new irv.iam.Identity("payments-ci", {
      groupUid: team.uid,
      claimMatch: {
        issuer: "https://token.actions.githubusercontent.com",
        subject: "repo:acme/payments:ref:refs/heads/main",
      },
    });
    return { platformUid: platform.uid, teamUid: team.uid, ciUid: ci.uid };
  };
}
