import type * as pulumi from "@pulumi/pulumi";
import { byUid, dataSource } from "../data-sources/index.js";
import type { ByUid, ExternalGroupRoleMapping, InputsOf } from "../types/index.js";

/**
 * Arguments of {@link getExternalGroupRoleMappings}.
 *
 * @example
 * const args: irv.iam.GetExternalGroupRoleMappingsArgs = { identityProviderUid };
 */
export interface GetExternalGroupRoleMappingsArgs {
  /** The identity provider. */
  identityProviderUid: string;
}

/**
 * Result of {@link getExternalGroupRoleMappings}.
 *
 * @example
 * const { externalGroupRoleMappings }: irv.iam.GetExternalGroupRoleMappingsResult = await irv.iam.getExternalGroupRoleMappings({ identityProviderUid });
 */
export interface GetExternalGroupRoleMappingsResult {
  externalGroupRoleMappings: ExternalGroupRoleMapping[];
}

const list = dataSource(
  "irv.iam.getExternalGroupRoleMappings",
  async (client, { identityProviderUid }: GetExternalGroupRoleMappingsArgs) => {
    if (!identityProviderUid) throw new Error("identityProviderUid is required");
    return {
      externalGroupRoleMappings: await client.externalGroupRoleMappings.collectParallel({
        childrenOf: identityProviderUid,
      }),
    };
  },
);
const one = byUid("irv.iam.getExternalGroupRoleMapping", (client) => client.externalGroupRoleMappings);

/**
 * Every external group role mapping of an identity provider (all pages): who holds which role
 * through the provider's groups.
 *
 * @example
 * const { externalGroupRoleMappings } = await irv.iam.getExternalGroupRoleMappings({ identityProviderUid });
 */
export function getExternalGroupRoleMappings(
  args: GetExternalGroupRoleMappingsArgs,
): Promise<GetExternalGroupRoleMappingsResult> {
  return list.get(args);
}

/**
 * {@link getExternalGroupRoleMappings} taking Inputs and returning an Output.
 *
 * @example
 * export const mapped = irv.iam.getExternalGroupRoleMappingsOutput({ identityProviderUid: okta.uid }).externalGroupRoleMappings.apply((l) => l.map((m) => m.externalGroupId));
 */
export function getExternalGroupRoleMappingsOutput(
  args: InputsOf<GetExternalGroupRoleMappingsArgs>,
): pulumi.Output<GetExternalGroupRoleMappingsResult> {
  return list.output(args);
}

/**
 * One external group role mapping by uid.
 *
 * @example
 * const mapping = await irv.iam.getExternalGroupRoleMapping({ uid: mappingUid });
 */
export function getExternalGroupRoleMapping(args: ByUid): Promise<ExternalGroupRoleMapping> {
  return one.get(args);
}

/**
 * {@link getExternalGroupRoleMapping} taking Inputs and returning an Output.
 *
 * @example
 * export const mappedRole = irv.iam.getExternalGroupRoleMappingOutput({ uid: mapping.uid }).roleUid;
 */
export function getExternalGroupRoleMappingOutput(
  args: InputsOf<ByUid>,
): pulumi.Output<ExternalGroupRoleMapping> {
  return one.output(args);
}
