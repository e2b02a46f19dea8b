import type { StubType } from "../stub/index.js";
import { isStubType } from "../stub/index.js";

/**
 * The package name of the native plugin (`pulumi-resource-irv`, tokens `irv:<module>:<Type>`).
 *
 * @example
 * `${PACKAGE}:index:Provider`; // "irv:index:Provider"
 */
export const PACKAGE = "irv";

/**
 * The invoke token of a data source name (`irv.iam.getRoles` → `irv:iam:getRoles`).
 *
 * @example
 * functionToken("irv.registry.getRepos"); // "irv:registry:getRepos"
 */
export function functionToken(name: string): string {
  return name.split(".").join(":");
}

/**
 * The resource types of a list of native tokens, by token (`irv:iam:Group` → `Group`); a token
 * that is not `irv:<module>:<Type>` of a known type is left out. The running plugin takes the
 * tokens from the schema it serves, so it needs no namespace scan (see `module-of.ts`) at start.
 *
 * @example
 * resourceTypesByToken(["irv:iam:Group"]).get("irv:iam:Group"); // "Group"
 */
export function resourceTypesByToken(tokens: Iterable<string>): ReadonlyMap<string, StubType> {
  const types = new Map<string, StubType>();
  for (const token of tokens) {
    const [pkg, , type = ""] = token.split(":");
    if (pkg === PACKAGE && isStubType(type)) types.set(token, type);
  }
  return types;
}
