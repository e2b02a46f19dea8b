/**
 * `pulumi-irv/internal/runtime`: what the serialized provider stub loads inside the Pulumi provider
 * process. **Internal, not public API**: no semver promise, no types published; only the stub (and
 * the test toolchain's preload) may load it. `pulumi-irv/runtime` stays as an alias of it because
 * the stub in state written by 0.1.0 requires that name, and a stack's delete and read run the
 * stub stored in its state.
 * Keeping the implementation here (not in the serialized code) keeps `__provider` tiny, free of
 * paths and credentials, and unchanged across package upgrades.
 *
 * @example
 * // inside the stub's configure(req):
 * require("pulumi-irv/internal/runtime").install(this, "Group", req);
 */

// First: an unsupported Node (the dynamic providers run on the program's) says so in one line.
import "../node-version.js";

export { diffInputs } from "./diff-inputs.js";
export { keepWriteOnly, makeProvider } from "./dynamic-provider.js";
export { install } from "./install.js";
export type { AnyKind, KindDefinition, KindEnv, Props } from "./kind-definition.js";
export { defineKind } from "./kind-definition.js";
export { kindEnvOf } from "./kind-env.js";
export {
  accountAssociationsKind,
  deleteGroup,
  deleteWhenEmpty,
  durationMs,
  externalGroupRoleMappingKind,
  groupInviteKind,
  groupKind,
  identityKind,
  identityProviderKind,
  KIND_DEFINITIONS,
  overlayBindingKind,
  overlayKind,
  PULL_TOKEN_ISSUER,
  pullTokenKind,
  REPO_PARENT,
  repoKind,
  roleBindingKind,
  roleKind,
  subscriptionKind,
  tagKind,
} from "./kinds/index.js";
export { DEFAULT_REGISTRY_HOST } from "./registry-host.js";
export { serializedProvider } from "./serialized-provider.js";
export { isUnknownAt, UNKNOWN } from "./unknown.js";
