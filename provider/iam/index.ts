export {
  type GetRoleArgs,
  type GetRolesResult,
  getRole,
  getRoleOutput,
  getRoles,
  getRolesOutput,
} from "./get-roles.js";
export { Group, type GroupArgs } from "./group.js";
export { type ClaimMatchArgs, Identity, type IdentityArgs } from "./identity.js";
export { type BoundIdentity, type BoundRef, RoleBinding, type RoleBindingArgs } from "./role-binding.js";
