// The package's namespaces decide the modules of the native tokens. This loads the whole package
// (the TypeScript classes and @pulumi/pulumi): the schema generator and the CLI use it; the running
// plugin reads the same tokens from its schema instead.
import * as irv from "../index.js";
import type { StubType } from "../stub/index.js";
import { RESOURCE_TYPES } from "../stub/index.js";
import { PACKAGE, resourceTypesByToken } from "./type-tokens.js";

// The modules are the package's namespaces (`irv.iam`, `irv.registry`, …): a class or lookup
// belongs to the one that exports it, so a new namespace or kind needs no entry here.
const namespaces: [string, object][] = Object.entries(irv as Record<string, unknown>).filter(
  (e): e is [string, object] => typeof e[1] === "object" && e[1] !== null,
);

/**
 * The module of a resource type: the namespace whose exports include its class.
 *
 * @example
 * moduleOf("Group"); // "iam"
 */
export function moduleOf(type: StubType): string {
  const found = namespaces.find(([, ns]) => type in ns);
  if (!found) throw new Error(`pulumi-irv: no namespace exports the class ${type}`);
  return found[0];
}

/**
 * The type token of a resource type in the native plugin.
 *
 * @example
 * resourceToken("Group"); // "irv:iam:Group"
 */
export function resourceToken(type: StubType): string {
  return `${PACKAGE}:${moduleOf(type)}:${type}`;
}

/**
 * Every resource token, in the order of `RESOURCE_TYPES`.
 *
 * @example
 * resourceTokens(); // ["irv:iam:Group", "irv:iam:Identity", …]
 */
export function resourceTokens(): string[] {
  return RESOURCE_TYPES.map(resourceToken);
}

/**
 * The resource type a native token names, or undefined for a token that is not ours.
 *
 * @example
 * typeOfToken("irv:iam:Group"); // "Group"
 */
export function typeOfToken(token: string): StubType | undefined {
  return resourceTypesByToken(resourceTokens()).get(token);
}
