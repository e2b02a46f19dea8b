import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import { slug } from "../../../../provider/cli/org-kinds.js";
import type { ProgramInput } from "../../../../provider/cli/program-plan.js";
import { renderYamlProgram } from "../../../../provider/cli/render-yaml-program.js";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const uid = (parent: string, n: number) => `${parent}/${n.toString(16).padStart(16, "0")}`;
// A Pulumi YAML interpolation, `${expr}`.
const ref = (expr: string) => `\${${expr}}`;
const VIEWER = {
  uid: "aaaa",
  name: "viewer",
  description: "Built-in role: read-only access.",
  capabilities: [],
};
const payments: OrgObject = {
  uid: uid(ROOT, 1),
  className: "Group",
  baseName: slug("payments"),
  parentUid: ROOT,
  args: { parentUid: { ref: ROOT }, name: "payments", description: `Costs \${not} an interpolation` },
};
const ci: OrgObject = {
  uid: uid(payments.uid, 2),
  className: "Identity",
  baseName: "ci-bot",
  parentUid: payments.uid,
  args: {
    groupUid: { ref: payments.uid },
    name: "ci-bot",
    claimMatch: { fields: { issuer: "https://i", subject: "s" } },
  },
};
const binding: OrgObject = {
  uid: uid(payments.uid, 3),
  className: "RoleBinding",
  baseName: "ci-viewer",
  parentUid: payments.uid,
  args: { groupUid: { ref: payments.uid }, identityUid: { ref: ci.uid }, roleUid: { ref: VIEWER.uid } },
};
const sso: OrgObject = {
  uid: uid(payments.uid, 4),
  className: "IdentityProvider",
  baseName: "sso",
  parentUid: payments.uid,
  args: {
    parentUid: { ref: payments.uid },
    name: "sso",
    oidc: { fields: { issuer: "https://idp", clientId: "irv", clientSecret: { secret: "clientSecret" } } },
  },
};
const render = (objects: OrgObject[], roles: ProgramInput["roles"] = [VIEWER]) =>
  renderYamlProgram({
    rootUid: ROOT,
    objects,
    roles,
    project: "irv-org",
    versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" },
    kinds: ["groups", "identities", "roleBindings", "identityProviders"],
  });

interface Program {
  runtime: string;
  config?: Record<string, unknown>;
  variables: Record<string, unknown>;
  resources: Record<
    string,
    { type: string; name?: string; properties: Record<string, unknown>; options: unknown }
  >;
}

describe("import-org --language yaml", () => {
  it("writes a Pulumi YAML program on the native tokens, each resource imported by its uid", () => {
    const files = render([payments, ci, binding]);
    expect(Object.keys(files).sort()).toEqual(["Pulumi.yaml", "README.md"]);
    const program = parse(files["Pulumi.yaml"] as string) as Program;
    expect(program.runtime).toBe("yaml");
    expect(program.variables).toEqual({
      rootUid: ROOT,
      viewerRole: { "fn::invoke": { function: "irv:iam:getRole", arguments: { name: "viewer" } } },
    });
    expect(program.resources.payments).toEqual({
      type: "irv:iam:Group",
      properties: {
        parentUid: ref("rootUid"),
        name: "payments",
        description: `Costs $\${not} an interpolation`,
      },
      options: { import: payments.uid },
    });
    // The key is an identifier `${…}` can name; the logical name stays the one the TypeScript program gives.
    expect(program.resources.ciBot).toMatchObject({ type: "irv:iam:Identity", name: "ci-bot" });
    expect(program.resources.ciBot?.properties.claimMatch).toEqual({ issuer: "https://i", subject: "s" });
    expect(program.resources.ciViewer?.properties).toEqual({
      groupUid: ref("payments.uid"),
      identityUid: ref("ciBot.uid"),
      roleUid: ref("viewerRole.uid"),
    });
    expect(files["README.md"]).toContain("| `irv:iam:RoleBinding` | 1 |");
  });

  it("makes a write-only field a secret config entry of the program, listed in the README", () => {
    const files = render([payments, sso]);
    const program = parse(files["Pulumi.yaml"] as string) as Program;
    expect(program.config).toEqual({ ssoClientSecret: { type: "string", secret: true } });
    expect(program.resources.sso?.properties.oidc).toMatchObject({ clientSecret: ref("ssoClientSecret") });
    expect(files["README.md"]).toContain("pulumi config set --secret irv-org:ssoClientSecret <value>");
  });

  it("refers to a built-in role by its uid when a custom role has its name", () => {
    const files = render(
      [payments, ci, binding],
      [VIEWER, { ...VIEWER, uid: "bbbb", parentUid: payments.uid }],
    );
    const program = parse(files["Pulumi.yaml"] as string) as Program;
    expect(program.variables.viewerRole).toBe("aaaa");
    expect(program.resources.ciViewer?.properties.roleUid).toBe(ref("viewerRole"));
  });
});
