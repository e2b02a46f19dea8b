import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isType } from "../type-tokens.js";

/**
 * `description-required` (disabled by default): groups and identities carry a description, so
 * that whoever reads the org tree knows what each is for.
 *
 * @example
 * // policy-config.json: { "description-required": "mandatory" }
 */
export const descriptionRequired: ResourceValidationPolicy = {
  name: "description-required",
  description: "Groups and identities have a non-empty description.",
  enforcementLevel: "disabled",
  validateResource: (args, reportViolation) => {
    const kind = isType(args.type, "Group")
      ? "group"
      : isType(args.type, "Identity")
        ? "identity"
        : undefined;
    if (!kind) return;
    const d = args.props.description;
    if (typeof d !== "string" || d.trim() === "")
      reportViolation(`The ${kind} ${JSON.stringify(args.props.name ?? args.name)} has no description.`);
  },
};
