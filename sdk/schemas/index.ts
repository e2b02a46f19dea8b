export { type Advisory, Advisory as AdvisorySchema, Severity } from "./advisory.js";
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
  ClaimMatch,
  IDENTITY_MUTABLE_FIELDS,
  type Identity,
  Identity as IdentitySchema,
  type IdentityCreate,
  IdentityCreate as IdentityCreateSchema,
} from "./identity.js";
export { collectionPath, KINDS, type KindName, type KindSpec } from "./kinds.js";
export { listEnvelope, type Page } from "./list.js";
export {
  type LooseCreate,
  LooseCreate as LooseCreateSchema,
  type LooseResource,
  LooseResource as LooseResourceSchema,
} from "./loose.js";
export { type Repo, Repo as RepoSchema, type Tag, Tag as TagSchema } from "./registry.js";
export {
  ROLE_MUTABLE_FIELDS,
  type Role,
  Role as RoleSchema,
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
