export type { GetRoleArgs, GetRolesResult } from "./get-roles.js";
export { getRole, getRoleOutput, getRoles, getRolesOutput } from "./get-roles.js";
export type { GroupArgs } from "./group.js";
export { Group } from "./group.js";
export type { ClaimMatchArgs, IdentityArgs } from "./identity.js";
export { Identity } from "./identity.js";
export type { BoundIdentity, BoundRef, RoleBindingArgs } from "./role-binding.js";
export { RoleBinding } from "./role-binding.js";
