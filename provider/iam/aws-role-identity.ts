import type * as pulumi from "@pulumi/pulumi";
import { presetFunction } from "../data-sources/index.js";
import type { InputsOf } from "../types/index.js";
import type { AwsIdentityPreset, AwsRoleIdentityArgs } from "./identity-presets.js";
import { awsRoleIdentityMatch } from "./identity-presets.js";

const preset = presetFunction("irv.iam.awsRoleIdentity", awsRoleIdentityMatch);

/**
 * The `awsIdentity` of the sessions of one IAM role in one account: the role name escaped in an
 * anchored ARN pattern. A role name with a path or wildcard is refused.
 *
 * @example
 * const backup = new irv.iam.Identity("backup", {
 *   groupUid: team.uid,
 *   awsIdentity: irv.iam.awsRoleIdentityOutput({ account: "123456789012", role: "backup" }),
 * });
 */
export function awsRoleIdentity(args: AwsRoleIdentityArgs): Promise<AwsIdentityPreset> {
  return preset.get(args);
}

/**
 * {@link awsRoleIdentity} taking Inputs and returning an Output.
 *
 * @example
 * const aws = irv.iam.awsRoleIdentityOutput({ account: "123456789012", role: "backup" });
 */
export function awsRoleIdentityOutput(args: InputsOf<AwsRoleIdentityArgs>): pulumi.Output<AwsIdentityPreset> {
  return preset.output(args);
}
