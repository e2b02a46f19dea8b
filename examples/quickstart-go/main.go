// Quickstart in Go: an organization tree (platform → teams), one CI identity per team trusted for
// its GitHub Actions repository, viewer bindings through getRole, and a custom role for the
// platform's release workflows bound to an identity any release branch may assume. The same tree
// as examples/quickstart (TypeScript), on the Go SDK generated from the package schema.
package main

import (
	"fmt"

	"github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv/iam"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

const githubIssuer = "https://token.actions.githubusercontent.com"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		// The organization (root group) uid; the emulator prints it as `orgUid` when it starts.
		orgUid := cfg.Require("orgUid")
		description := cfg.Get("platformDescription")
		if description == "" {
			description = "Platform engineering"
		}

		platform, err := iam.NewGroup(ctx, "platform", &iam.GroupArgs{
			ParentUid:   pulumi.String(orgUid),
			Description: pulumi.String(description),
		})
		if err != nil {
			return err
		}
		viewer := iam.LookupRoleOutput(ctx, iam.LookupRoleOutputArgs{Name: pulumi.String("viewer")})

		teamGroups := pulumi.StringMap{}
		for _, team := range []string{"payments", "search"} {
			group, err := iam.NewGroup(ctx, "team-"+team, &iam.GroupArgs{
				ParentUid:   platform.Uid,
				Description: pulumi.String(fmt.Sprintf("The %s team", team)),
			})
			if err != nil {
				return err
			}
			ci, err := iam.NewIdentity(ctx, team+"-ci", &iam.IdentityArgs{
				GroupUid:    group.Uid,
				Description: pulumi.String(fmt.Sprintf("GitHub Actions of acme/%s on main", team)),
				ClaimMatch: iam.IdentityClaimMatchArgs{
					Issuer:  pulumi.String(githubIssuer),
					Subject: pulumi.String(fmt.Sprintf("repo:acme/%s:ref:refs/heads/main", team)),
				},
			})
			if err != nil {
				return err
			}
			if _, err := iam.NewRoleBinding(ctx, team+"-ci-viewer", &iam.RoleBindingArgs{
				GroupUid:    group.Uid,
				IdentityUid: ci.Uid,
				RoleUid:     viewer.Uid(),
			}); err != nil {
				return err
			}
			teamGroups[team] = group.Uid
		}

		// A custom role with only what a release workflow reads, bound to an identity that any
		// `release-*` branch of the platform repository may assume (the subject is an anchored pattern).
		releaseReader, err := iam.NewRole(ctx, "release-reader", &iam.RoleArgs{
			ParentUid:    platform.Uid,
			Description:  pulumi.String("Reads groups, repos and tags for release workflows"),
			Capabilities: pulumi.ToStringArray([]string{"groups.list", "repo.list", "tag.list", "advisories.list"}),
		})
		if err != nil {
			return err
		}
		release, err := iam.NewIdentity(ctx, "platform-release", &iam.IdentityArgs{
			GroupUid:    platform.Uid,
			Description: pulumi.String("GitHub Actions of acme/platform on release branches"),
			ClaimMatch: iam.IdentityClaimMatchArgs{
				Issuer:         pulumi.String(githubIssuer),
				SubjectPattern: pulumi.String("repo:acme/platform:ref:refs/heads/release-.+"),
			},
		})
		if err != nil {
			return err
		}
		if _, err := iam.NewRoleBinding(ctx, "platform-release-reader", &iam.RoleBindingArgs{
			GroupUid:    platform.Uid,
			IdentityUid: release.Uid,
			RoleUid:     releaseReader.Uid,
		}); err != nil {
			return err
		}

		ctx.Export("platformUid", platform.Uid)
		ctx.Export("teamGroups", teamGroups)
		return nil
	})
}
