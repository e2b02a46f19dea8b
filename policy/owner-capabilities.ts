import { BUILT_IN_ROLE_CAPABILITIES } from "pulumi-irv/sdk";

/**
 * What the built-in `owner` role grants: every capability of the families this package manages
 * (the sdk's published set). Should the API gain a capability before this list does, a role
 * granting all of these is still flagged.
 *
 * @example
 * const ownerEquivalent = OWNER_CAPABILITIES.every((c) => capabilities.includes(c));
 */
export const OWNER_CAPABILITIES: readonly string[] = BUILT_IN_ROLE_CAPABILITIES.owner;
