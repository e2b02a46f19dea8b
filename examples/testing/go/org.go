// Package org is an organization program under test: a platform group, a team group under it and
// the team's CI identity, trusted for its GitHub Actions workflow on main.
package org

import (
	"github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Program makes the tree under the organization orgUID and exports the uids it made.
func Program(orgUID string) pulumi.RunFunc {
	return func(ctx *pulumi.Context) error {
		platform, err := iam.NewGroup(ctx, "platform", &iam.GroupArgs{
			ParentUid:   pulumi.String(orgUID),
			Description: pulumi.String("Platform engineering"),
		})
		if err != nil {
			return err
		}
		team, err := iam.NewGroup(ctx, "team-payments", &iam.GroupArgs{
			ParentUid:   platform.Uid,
			Description: pulumi.String("The payments team"),
		})
		if err != nil {
			return err
		}
		ci, err := iam.NewIdentity(ctx, "payments-ci", &iam.IdentityArgs{
			GroupUid: team.Uid,
			ClaimMatch: &iam.IdentityClaimMatchArgs{
				Issuer:  pulumi.String("https://token.actions.githubusercontent.com"),
				Subject: pulumi.String("repo:acme/payments:ref:refs/heads/main"),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("platformUid", platform.Uid)
		ctx.Export("teamUid", team.Uid)
		ctx.Export("ciUid", ci.Uid)
		return nil
	}
}
