/**
 * The registry host pull tokens are for when `irv:registryHost` is not set: the service's
 * registry (docs/contract-decisions.md, "Registry built-in roles and pull tokens").
 *
 * @example
 * settings.registryHost ?? DEFAULT_REGISTRY_HOST; // "cgr.dev"
 */
export const DEFAULT_REGISTRY_HOST = "cgr.dev";
