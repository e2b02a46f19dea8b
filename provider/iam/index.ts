export type { AccountAssociationsArgs, GitHubAssociation } from "./account-associations.js";
export { AccountAssociations } from "./account-associations.js";
export { awsRoleIdentity, awsRoleIdentityOutput } from "./aws-role-identity.js";
export type { ExternalGroupRoleMappingArgs } from "./external-group-role-mapping.js";
export { ExternalGroupRoleMapping } from "./external-group-role-mapping.js";
export type {
  GetExternalGroupRoleMappingsArgs,
  GetExternalGroupRoleMappingsResult,
} from "./get-external-group-role-mappings.js";
export {
  getExternalGroupRoleMapping,
  getExternalGroupRoleMappingOutput,
  getExternalGroupRoleMappings,
  getExternalGroupRoleMappingsOutput,
} from "./get-external-group-role-mappings.js";
export type { GetGroupArgs } from "./get-group.js";
export { getGroup, getGroupOutput } from "./get-group.js";
export type { GetIdentityArgs } from "./get-identity.js";
export { getIdentity, getIdentityOutput } from "./get-identity.js";
export type { GetIdentityProvidersResult } from "./get-identity-providers.js";
export { getIdentityProviders, getIdentityProvidersOutput } from "./get-identity-providers.js";
export type { GetRoleArgs, GetRolesArgs, GetRolesResult } from "./get-roles.js";
export { getRole, getRoleOutput, getRoles, getRolesOutput } from "./get-roles.js";
export { githubActionsClaims, githubActionsClaimsOutput } from "./github-actions-claims.js";
export { gitlabCiClaims, gitlabCiClaimsOutput } from "./gitlab-ci-claims.js";
export type { GroupArgs } from "./group.js";
export { Group } from "./group.js";
export type { GroupInviteArgs } from "./group-invite.js";
export { GroupInvite } from "./group-invite.js";
export type { AwsIdentityArgs, ClaimMatchArgs, IdentityArgs, StaticKeysArgs } from "./identity.js";
export { Identity } from "./identity.js";
export type {
  AwsIdentityPreset,
  AwsRoleIdentityArgs,
  ClaimMatchPreset,
  GithubActionsClaimsArgs,
  GitlabCiClaimsArgs,
} from "./identity-presets.js";
export type { CorrelationRule, IdentityProviderArgs, OidcArgs } from "./identity-provider.js";
export { IdentityProvider } from "./identity-provider.js";
export type { RoleArgs } from "./role.js";
export { Role } from "./role.js";
export type { BoundIdentity, BoundRef, RoleBindingArgs } from "./role-binding.js";
export { RoleBinding } from "./role-binding.js";
