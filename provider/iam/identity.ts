import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Which workload tokens may assume an identity.
 *
 * @example
 * const claimMatch: irv.iam.ClaimMatchArgs = {
 *   issuer: "https://token.actions.githubusercontent.com",
 *   subject: "repo:acme/app:ref:refs/heads/main",
 * };
 */
export interface ClaimMatchArgs {
  /** The token issuer, an https URL (e.g. `https://token.actions.githubusercontent.com`). */
  issuer: pulumi.Input<string>;
  /** The token subject (e.g. `repo:acme/app:ref:refs/heads/main`). */
  subject: pulumi.Input<string>;
}

/**
 * Arguments of {@link Identity}.
 *
 * @example
 * const args: irv.iam.IdentityArgs = { groupUid: teamA.uid, description: "CI of team A", claimMatch };
 * const ci = new irv.iam.Identity("ci", args);
 */
export interface IdentityArgs {
  /** Uid of the group the identity belongs to. Changing it replaces the identity. */
  groupUid: pulumi.Input<string>;
  /** Defaults to the resource's logical name. */
  name?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  claimMatch: pulumi.Input<ClaimMatchArgs>;
}

/**
 * An identity that workloads assume by presenting an OIDC token whose issuer and subject match
 * (`pulumi-nodejs:dynamic/irv:Identity`).
 *
 * @example
 * const ci = new irv.iam.Identity("team-a-ci", {
 *   groupUid: teamA.uid,
 *   claimMatch: { issuer: "https://token.actions.githubusercontent.com", subject: "repo:acme/team-a:ref:refs/heads/main" },
 * });
 */
export class Identity extends IrvResource {
  declare readonly groupUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | undefined>;
  declare readonly claimMatch: pulumi.Output<{ issuer: string; subject: string }>;
  /** When a token last assumed the identity. */
  declare readonly lastSeenTime: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "Identity",
      name,
      {
        groupUid: args.groupUid,
        name: args.name ?? name,
        description: args.description,
        claimMatch: args.claimMatch,
      },
      ["lastSeenTime", "createTime", "updateTime"],
      opts,
    );
  }
}
