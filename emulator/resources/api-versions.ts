import type { KindRules } from "./kind-rules.js";

/**
 * The API versions the emulator serves, both from one store: `v2beta1` and its GA copy `v2` (the
 * published v2 definitions are the v2beta1 ones with the package renamed, chainguard-dev/sdk
 * proto/chainguard/platform/<domain>/v2/).
 *
 * @example
 * API_VERSIONS.includes("v2"); // true
 */
export const API_VERSIONS = ["v2beta1", "v2"] as const;

/**
 * One API version.
 *
 * @example
 * const v: ApiVersion = "v2";
 */
export type ApiVersion = (typeof API_VERSIONS)[number];

/**
 * The versions a kind is served at: every one, but v2beta1 only for a kind with no GA definition
 * (overlays and overlay bindings: the published registry/v2 has none).
 *
 * @example
 * versionsOf(KIND_RULES.groups); // ["v2beta1", "v2"]
 */
export function versionsOf(rules: Pick<KindRules, "betaOnly">): readonly ApiVersion[] {
  return rules.betaOnly ? ["v2beta1"] : API_VERSIONS;
}

/**
 * The path of a kind's collection at a version, relative to the base URL.
 *
 * @example
 * versionedPath(KIND_RULES.groups, "v2"); // "/iam/v2/groups"
 */
export function versionedPath(rules: Pick<KindRules, "spec">, version: ApiVersion): string {
  return `/${rules.spec.domain}/${version}/${rules.spec.collection}`;
}
