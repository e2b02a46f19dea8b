import type { ResourceValidationPolicy } from "@pulumi/policy";
import { isType } from "../type-tokens.js";

const NEW_GROUP = Symbol("a group created by this preview");

// The policy runner throws on reading a value unknown in the preview: a new group's uid.
function unknownAsNew(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return NEW_GROUP;
  }
}

// Capabilities that let a holder hand out access: granting roles, or defining them.
const GRANTING = (c: string) => c === "role_bindings.create" || c.startsWith("roles.");

/**
 * `custom-role-least-privilege` (advisory): a custom role below the root that grants
 * `role_bindings.create` or any `roles.*` capability lets a team hand out access; that belongs to
 * the organization's administrators. A role whose `parentUid` is not known yet (a group the same
 * preview creates) is below the root: a stack can create groups, never the root organization.
 *
 * @example
 * new PolicyPack("irv", { policies: [customRoleLeastPrivilege] });
 */
export const customRoleLeastPrivilege: ResourceValidationPolicy = {
  name: "custom-role-least-privilege",
  description: "Custom roles below the root do not grant role bindings or role management.",
  enforcementLevel: "advisory",
  validateResource: (args, reportViolation) => {
    if (!isType(args.type, "Role")) return;
    const parentUid = unknownAsNew(() => args.props.parentUid);
    const { capabilities } = args.props;
    const belowRoot = parentUid === NEW_GROUP || (typeof parentUid === "string" && parentUid.includes("/"));
    if (!belowRoot || !Array.isArray(capabilities)) return;
    const granting = capabilities.filter((c): c is string => typeof c === "string" && GRANTING(c));
    if (granting.length > 0)
      reportViolation(
        `The role ${JSON.stringify(args.name)} grants ${granting.join(", ")} below the root: holders could hand out access. Keep these for roles defined at the root, or leave them out.`,
      );
  },
};
