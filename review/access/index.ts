// Public face of the access review's computation: effective capabilities per identity and group
// subtree, before/after rows with provenance and risk classes, finding ids and approvals. Pure (no
// I/O) but for the live read (`liveAccessOf`), which reads bindings through the client it is given:
// the CLI and the policy pack both call it.
export type {
  AccessReview,
  AccessRow,
  ChangeState,
  Finding,
  IdentityView,
  LockOut,
  Provenance,
  RoleSummary,
  SubtreeView,
} from "./access-diff.js";
export { isGain, isRisky, ownerCapabilitiesOf, reviewAccess } from "./access-diff.js";
export type { AccessEntry } from "./access-listing.js";
export { listAccess } from "./access-listing.js";
export type { Approval, UnapprovedChange } from "./approvals.js";
export {
  Approval as ApprovalSchema,
  ApprovalsFile,
  approvalHint,
  approves,
  deprecations,
  parseApprovals,
  unapprovedChanges,
} from "./approvals.js";
export type { EffectiveAccess, GroupAccess } from "./effective-access.js";
export {
  ancestry,
  bindingScopes,
  effectiveAccess,
  isRoot,
  ownerBindingsAtRoot,
} from "./effective-access.js";
export { findingId, grantRowId } from "./finding-id.js";
export { knownRolesOf } from "./known-roles.js";
export type { LiveAccess } from "./live-access.js";
export { liveAccessOf, liveBindings, touchedGroups } from "./live-access.js";
export type { BindingNode, GroupNode, IdentityNode, OrgModel, Ref, RoleNode } from "./org-model.js";
export { PREVIEW_UNKNOWN, parentUidOf } from "./org-model.js";
export type { RiskClass } from "./risk.js";
export {
  isBroadMatcher,
  isEscalationCapability,
  matchesAnything,
  RISK_CLASSES,
  spansRepositories,
} from "./risk.js";
export type { KnownRole, StackResource } from "./stack-resources.js";
export { externalGroupRef, irvClassOf, orgModelOf, uidIndexOf } from "./stack-resources.js";
