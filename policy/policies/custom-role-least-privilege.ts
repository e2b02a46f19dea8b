import type { ResourceValidationPolicy } from "@pulumi/policy";
import { TYPE } from "../type-tokens.js";

// Capabilities that let a holder hand out access: granting roles, or defining them.
const GRANTING = (c: string) => c === "role_bindings.create" || c.startsWith("roles.");

/**
 * `custom-role-least-privilege` (advisory): a custom role below the root that grants
 * `role_bindings.create` or any `roles.*` capability lets a team hand out access; that belongs to
 * the organization's administrators.
 *
 * @example
 * new PolicyPack("irv", { policies: [customRoleLeastPrivilege] });
 */
export const customRoleLeastPrivilege: ResourceValidationPolicy = {
  name: "custom-role-least-privilege",
  description: "Custom roles below the root do not grant role bindings or role management.",
  enforcementLevel: "advisory",
  validateResource: (args, reportViolation) => {
    if (args.type !== TYPE.Role) return;
    const { parentUid, capabilities } = args.props;
    if (typeof parentUid !== "string" || !parentUid.includes("/") || !Array.isArray(capabilities)) return;
    const granting = capabilities.filter((c): c is string => typeof c === "string" && GRANTING(c));
    if (granting.length > 0)
      reportViolation(
        `The role ${JSON.stringify(args.name)} grants ${granting.join(", ")} below the root: holders could hand out access. Keep these for roles defined at the root, or leave them out.`,
      );
  },
};
