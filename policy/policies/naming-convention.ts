import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isType } from "../type-tokens.js";

/**
 * Configuration of {@link namingConvention}.
 *
 * @example
 * // policy-config.json: { "naming-convention": { "identityPattern": "^ci-[a-z0-9-]+$", "maxLength": 40 } }
 * const config = { ...NAMING_DEFAULTS, ...args.getConfig<NamingConventionConfig>() };
 */
export interface NamingConventionConfig {
  /** Regular expression group names must match. */
  groupPattern?: string;
  /** Regular expression identity names must match. */
  identityPattern?: string;
  /** Longest name allowed, for groups and identities. */
  maxLength?: number;
}

/**
 * Defaults: lower-case kebab-case names of at most 63 characters.
 *
 * @example
 * new RegExp(NAMING_DEFAULTS.groupPattern).test("team-a"); // true
 * new RegExp(NAMING_DEFAULTS.groupPattern).test("Team A"); // false
 */
export const NAMING_DEFAULTS: Required<NamingConventionConfig> = {
  groupPattern: "^[a-z][a-z0-9-]*$",
  identityPattern: "^[a-z][a-z0-9-]*$",
  maxLength: 63,
};

/**
 * `naming-convention` (advisory by default): the organization's own naming rules, a regular
 * expression per kind and a maximum length, set through the pack config.
 *
 * @example
 * // policy-config.json: { "naming-convention": { "enforcementLevel": "mandatory", "groupPattern": "^team-[a-z0-9-]+$" } }
 */
export const namingConvention: ResourceValidationPolicy = {
  name: "naming-convention",
  description: "Group and identity names follow the organization's naming convention (configurable).",
  enforcementLevel: "advisory",
  configSchema: {
    properties: {
      groupPattern: { type: "string", default: NAMING_DEFAULTS.groupPattern },
      identityPattern: { type: "string", default: NAMING_DEFAULTS.identityPattern },
      maxLength: { type: "integer", minimum: 1, default: NAMING_DEFAULTS.maxLength },
    },
  },
  validateResource: (args, reportViolation) => {
    const kind = isType(args.type, "Group")
      ? "group"
      : isType(args.type, "Identity")
        ? "identity"
        : undefined;
    if (!kind) return;
    const name = args.props.name;
    if (typeof name !== "string") return;
    const config = { ...NAMING_DEFAULTS, ...args.getConfig<NamingConventionConfig>() };
    const pattern = kind === "group" ? config.groupPattern : config.identityPattern;
    if (!new RegExp(pattern).test(name))
      reportViolation(
        `The ${kind} name ${JSON.stringify(name)} does not follow the naming convention ${pattern}.`,
      );
    if (name.length > config.maxLength)
      reportViolation(
        `The ${kind} name ${JSON.stringify(name)} is ${name.length} characters long; the maximum is ${config.maxLength}.`,
      );
  },
};
