export {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  ACCOUNT_PROVIDERS,
  AccountAssociations as AccountAssociationsSchema,
  type AccountAssociations,
  AccountAssociationsCreate as AccountAssociationsCreateSchema,
  type AccountAssociationsCreate,
} from "./account-association.js";
export { type Advisory, Advisory as AdvisorySchema, Severity } from "./advisory.js";
export { CAPABILITIES, Capability, CapabilityList } from "./capabilities.js";
export {
  GROUP_NAME_PATTERN,
  GROUP_NAME_PATTERN_SOURCE,
  HIERARCHICAL_UID_PATTERN,
  Timestamp,
  TotalCount,
  Uid,
} from "./common.js";
export {
  GROUP_MUTABLE_FIELDS,
  type Group,
  Group as GroupSchema,
  type GroupCreate,
  GroupCreate as GroupCreateSchema,
  GroupName,
  ResourceLimits,
} from "./group.js";
export {
  GroupInvite as GroupInviteSchema,
  type GroupInvite,
  GroupInviteCreate as GroupInviteCreateSchema,
  type GroupInviteCreate,
  MAX_INVITE_LIFETIME_MS,
} from "./group-invite.js";
export {
  AwsIdentity,
  ClaimMatch,
  IDENTITY_MUTABLE_FIELDS,
  IDENTITY_VARIANTS,
  type Identity,
  Identity as IdentitySchema,
  type IdentityCreate,
  IdentityCreate as IdentityCreateSchema,
  matchesPattern,
  Pattern,
  ServicePrincipal,
  StaticIdentity,
} from "./identity.js";
export {
  IDENTITY_PROVIDER_MUTABLE_FIELDS,
  IdentityProvider as IdentityProviderSchema,
  type IdentityProvider,
  IdentityProviderCreate as IdentityProviderCreateSchema,
  type IdentityProviderCreate,
  Oidc,
  OidcInput,
} from "./identity-provider.js";
export { collectionPath, KINDS, type KindName, type KindSpec } from "./kinds.js";
export { listEnvelope, type Page } from "./list.js";
export { type Repo, Repo as RepoSchema, type Tag, Tag as TagSchema } from "./registry.js";
export {
  ROLE_MUTABLE_FIELDS,
  type Role,
  Role as RoleSchema,
  RoleCapabilities,
  type RoleCreate,
  RoleCreate as RoleCreateSchema,
} from "./role.js";
export {
  ROLE_BINDING_MUTABLE_FIELDS,
  type RoleBinding,
  RoleBinding as RoleBindingSchema,
  type RoleBindingCreate,
  RoleBindingCreate as RoleBindingCreateSchema,
} from "./role-binding.js";
export {
  BadRequest,
  ErrorInfo,
  type FieldViolation,
  PreconditionFailure,
  type PreconditionViolation,
  RequestInfo,
  RetryInfo,
  Status,
  TYPE_URL_PREFIX,
} from "./status.js";
export { V1List } from "./v1.js";
export { formatZodIssues, type IssueLine, zodIssueLines } from "./zod-issues.js";
