import type * as pulumi from "@pulumi/pulumi";
import { presetFunction } from "../data-sources/index.js";
import type { InputsOf } from "../types/index.js";
import type { ClaimMatchPreset, GithubActionsClaimsArgs } from "./identity-presets.js";
import { githubActionsClaimMatch } from "./identity-presets.js";

const preset = presetFunction("irv.iam.githubActionsClaims", githubActionsClaimMatch);

/**
 * The exact `claimMatch` for GitHub Actions tokens of one repository and exactly one of a ref, an
 * environment, a reusable workflow (`workflowRef`) or its pull requests. Literals are escaped and
 * patterns anchored; a repository that is not one literal `owner/name` is refused.
 *
 * @example
 * const deploy = new irv.iam.Identity("deploy", {
 *   groupUid: team.uid,
 *   claimMatch: irv.iam.githubActionsClaimsOutput({ repository: "acme/app", environment: "production" }),
 * });
 */
export function githubActionsClaims(args: GithubActionsClaimsArgs): Promise<ClaimMatchPreset> {
  return preset.get(args);
}

/**
 * {@link githubActionsClaims} taking Inputs and returning an Output.
 *
 * @example
 * const match = irv.iam.githubActionsClaimsOutput({ repository: "acme/app", ref: "refs/heads/main" });
 */
export function githubActionsClaimsOutput(
  args: InputsOf<GithubActionsClaimsArgs>,
): pulumi.Output<ClaimMatchPreset> {
  return preset.output(args);
}
