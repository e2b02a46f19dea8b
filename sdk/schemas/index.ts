export type { AccountAssociations, AccountAssociationsCreate } from "./account-association.js";
export {
  ACCOUNT_ASSOCIATIONS_MUTABLE_FIELDS,
  ACCOUNT_PROVIDERS,
  AccountAssociations as AccountAssociationsSchema,
  AccountAssociationsCreate as AccountAssociationsCreateSchema,
  encodeAccountAssociations,
  GitHub,
  GitHubInstallation,
} from "./account-association.js";
export type { Advisory, AdvisoryEvent, Severity } from "./advisory.js";
export {
  ADVISORY_EVENT_KINDS,
  Advisory as AdvisorySchema,
  AdvisoryEvent as AdvisoryEventSchema,
  Detection as DetectionSchema,
  FALSE_POSITIVE_TYPES,
  REVIEW_STATES,
  SEVERITY_TYPES,
  Severity as SeveritySchema,
} from "./advisory.js";
export type { BuiltInRoleName, CapabilityRow } from "./capabilities.js";
export {
  BUILT_IN_ROLE_CAPABILITIES,
  BUILT_IN_ROLE_NAMES,
  CAPABILITIES,
  CAPABILITY_TABLE,
  Capability,
  fromWireCapability,
  isWireCapability,
  toWireCapability,
  WireCapability,
} from "./capabilities.js";
export {
  GROUP_NAME_PATTERN,
  GROUP_NAME_PATTERN_SOURCE,
  HIERARCHICAL_UID_PATTERN,
  Int64,
  OptionalString,
  OptionalTimestamp,
  optionalMessage,
  ProtoString,
  protoEnum,
  repeated,
  Timestamp,
  TotalCount,
  Uid,
} from "./common.js";
export type { CustomOverlay, CustomOverlayInput } from "./custom-overlay.js";
export {
  CustomOverlay as CustomOverlaySchema,
  CustomOverlayInput as CustomOverlayInputSchema,
  ImageContents,
} from "./custom-overlay.js";
export { DURATION_RULE, Duration, durationMs, formatDuration, WIRE_DURATION_PATTERN } from "./duration.js";
export type {
  BatchDeleteMappingsResponse,
  ExternalGroupRoleMapping,
  ExternalGroupRoleMappingCreate,
} from "./external-group-role-mapping.js";
export {
  BatchDeleteMappingsResponse as BatchDeleteMappingsResponseSchema,
  ExternalGroupRoleMapping as ExternalGroupRoleMappingSchema,
  ExternalGroupRoleMappingCreate as ExternalGroupRoleMappingCreateSchema,
} from "./external-group-role-mapping.js";
export type { Group, GroupCreate } from "./group.js";
export {
  GROUP_MUTABLE_FIELDS,
  Group as GroupSchema,
  GroupCreate as GroupCreateSchema,
  GroupName,
  ResourceLimits,
} from "./group.js";
export type { GroupInvite, GroupInviteCreate } from "./group-invite.js";
export {
  encodeGroupInvite,
  GroupInvite as GroupInviteSchema,
  GroupInviteCreate as GroupInviteCreateSchema,
  GroupInviteRole,
  MAX_INVITE_LIFETIME_MS,
} from "./group-invite.js";
export type { Identity, IdentityCreate } from "./identity.js";
export {
  AwsIdentity,
  ClaimMatch,
  IDENTITY_MUTABLE_FIELDS,
  IDENTITY_VARIANTS,
  Identity as IdentitySchema,
  IdentityCreate as IdentityCreateSchema,
  MAX_STATIC_KEYS_LIFETIME_MS,
  Pattern,
  StaticKeys,
} from "./identity.js";
export type { CorrelationRule, IdentityProvider, IdentityProviderCreate } from "./identity-provider.js";
export {
  CORRELATION_RULES,
  effectiveCorrelationRule,
  IDENTITY_PROVIDER_MUTABLE_FIELDS,
  IdentityProvider as IdentityProviderSchema,
  IdentityProviderCreate as IdentityProviderCreateSchema,
  Oidc,
  OidcInput,
} from "./identity-provider.js";
export type { ApiVersion, KindName, KindSpec } from "./kinds.js";
export { API_VERSIONS, collectionPath, KINDS, servedVersion } from "./kinds.js";
export type { Page } from "./list.js";
export { listEnvelope } from "./list.js";
export type { Overlay, OverlayCreate } from "./overlay.js";
export { Overlay as OverlaySchema, OverlayCreate as OverlayCreateSchema } from "./overlay.js";
export type { OverlayBinding, OverlayBindingCreate } from "./overlay-binding.js";
export {
  OverlayBinding as OverlayBindingSchema,
  OverlayBindingCreate as OverlayBindingCreateSchema,
} from "./overlay-binding.js";
export type {
  Repo,
  RepoCreate,
  RepoReadme,
  SyncConfig,
  SyncConfigInput,
  Tag,
  TagCreate,
} from "./registry.js";
export {
  CATALOG_TIERS,
  Digest,
  REPO_MUTABLE_FIELDS,
  Repo as RepoSchema,
  RepoCreate as RepoCreateSchema,
  RepoReadme as RepoReadmeSchema,
  SYNC_INHERITED_FIELDS,
  SyncConfig as SyncConfigSchema,
  SyncConfigInput as SyncConfigInputSchema,
  Tag as TagSchema,
  TagCreate as TagCreateSchema,
} from "./registry.js";
export type { Role, RoleCreate } from "./role.js";
export {
  encodeRole,
  isBuiltInRole,
  ROLE_MUTABLE_FIELDS,
  Role as RoleSchema,
  RoleCapabilities,
  RoleCreate as RoleCreateSchema,
} from "./role.js";
export type { RoleBinding, RoleBindingCreate } from "./role-binding.js";
export {
  ROLE_BINDING_MUTABLE_FIELDS,
  RoleBinding as RoleBindingSchema,
  RoleBindingCreate as RoleBindingCreateSchema,
} from "./role-binding.js";
export {
  SERVICE_PRINCIPALS,
  ServicePrincipal,
  ServicePrincipalRead,
} from "./service-principal.js";
export type { FieldViolation, PreconditionViolation } from "./status.js";
export {
  BadRequest,
  ErrorInfo,
  PreconditionFailure,
  RequestInfo,
  RetryInfo,
  Status,
  TYPE_URL_PREFIX,
} from "./status.js";
export type { Subscription, SubscriptionCreate } from "./subscription.js";
export {
  Subscription as SubscriptionSchema,
  SubscriptionCreate as SubscriptionCreateSchema,
  sinkProblem,
} from "./subscription.js";
export { V1List } from "./v1.js";
export type { IssueLine } from "./zod-issues.js";
export { formatZodIssues, zodIssueLines } from "./zod-issues.js";
