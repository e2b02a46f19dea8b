import type * as pulumi from "@pulumi/pulumi";
import { presetFunction } from "../data-sources/index.js";
import type { InputsOf } from "../types/index.js";
import type { ClaimMatchPreset, GitlabCiClaimsArgs } from "./identity-presets.js";
import { gitlabCiClaimMatch } from "./identity-presets.js";

const preset = presetFunction("irv.iam.gitlabCiClaims", gitlabCiClaimMatch);

/**
 * The exact `claimMatch` for GitLab CI ID tokens of one project and either one ref (with its
 * `refType`) or one environment. Literals are escaped and patterns anchored; a project that is not
 * one literal path is refused.
 *
 * @example
 * const match = await irv.iam.gitlabCiClaims({ project: "acme/app", ref: "main", refType: "branch" });
 */
export function gitlabCiClaims(args: GitlabCiClaimsArgs): Promise<ClaimMatchPreset> {
  return preset.get(args);
}

/**
 * {@link gitlabCiClaims} taking Inputs and returning an Output.
 *
 * @example
 * const match = irv.iam.gitlabCiClaimsOutput({ project: "acme/app", environment: "production" });
 */
export function gitlabCiClaimsOutput(args: InputsOf<GitlabCiClaimsArgs>): pulumi.Output<ClaimMatchPreset> {
  return preset.output(args);
}
