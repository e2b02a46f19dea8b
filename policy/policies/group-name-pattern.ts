import type { ResourceValidationPolicy } from "@pulumi/policy";
import { API_GROUP_NAME, isType } from "../type-tokens.js";

/**
 * `group-name-pattern` (mandatory): group names match the API's pattern, so a name the API would
 * refuse is caught on the pull request, before any call.
 *
 * @example
 * new PolicyPack("irv", { policies: [groupNamePattern] });
 */
export const groupNamePattern: ResourceValidationPolicy = {
  name: "group-name-pattern",
  description: `Group names must match the API pattern ${API_GROUP_NAME.source}.`,
  enforcementLevel: "mandatory",
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "Group")) return;
    const name = args.props.name;
    if (typeof name === "string" && !API_GROUP_NAME.test(name))
      reportViolation(
        `Group name ${JSON.stringify(name)} does not match ${API_GROUP_NAME.source}: use lower-case letters, digits, space, '.', '_' or '-'.`,
      );
  },
};
