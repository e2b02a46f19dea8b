import ts from "typescript";
import { describe, expect, it } from "vitest";
import { logicalNames, variableName } from "../../../../provider/cli/logical-names.js";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import { slug } from "../../../../provider/cli/org-kinds.js";
import { renderProgram } from "../../../../provider/cli/render-program.js";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const uid = (parent: string, n: number) => `${parent}/${n.toString(16).padStart(16, "0")}`;
const group = (parent: string, n: number, name: string): OrgObject => ({
  uid: uid(parent, n),
  className: "Group",
  baseName: slug(name),
  parentUid: parent,
  args: { parentUid: { ref: parent }, name },
});
const VIEWER = {
  uid: "aaaa",
  name: "viewer",
  description: "Built-in role: read-only access.",
  capabilities: [],
};
const render = (objects: OrgObject[]) =>
  renderProgram({
    rootUid: ROOT,
    objects,
    roles: [VIEWER],
    project: "irv-org",
    versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" },
    kinds: ["groups", "identities", "roleBindings"],
  });

const compiles = (code: string) =>
  ts.transpileModule(code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.CommonJS } })
    .diagnostics ?? [];

describe("import-org names", () => {
  it("turns spaces, dots, quotes and leading digits into valid logical and variable names", () => {
    const a = group(ROOT, 1, "2fa admins");
    const b = group(ROOT, 2, 'team.search "x"');
    const c = group(ROOT, 3, "delete");
    const files = render([a, b, c]);
    expect(files["index.ts"]).toContain(
      'const group2faAdmins = new irv.iam.Group("2fa-admins", { parentUid: rootUid, name: "2fa admins" }',
    );
    expect(files["index.ts"]).toContain(
      'const teamSearchX = new irv.iam.Group("team-search-x", { parentUid: rootUid, name: "team.search \\"x\\"" }',
    );
    expect(files["index.ts"]).toContain('const groupDelete = new irv.iam.Group("delete"');
    expect(compiles(files["index.ts"] as string)).toEqual([]);
  });

  it("qualifies a name shared across groups with the parent's logical name", () => {
    const payments = group(ROOT, 1, "payments");
    const search = group(ROOT, 2, "search");
    const objects = [payments, search, group(payments.uid, 3, "ci"), group(search.uid, 4, "ci")];
    expect([...logicalNames(objects).values()]).toEqual(["payments", "search", "payments-ci", "search-ci"]);
    expect(render(objects)["index.ts"]).toContain(
      'const paymentsCi = new irv.iam.Group("payments-ci", { parentUid: payments.uid',
    );
  });

  it("keeps names unique when the slugs of a parent's children collide", () => {
    const objects = [group(ROOT, 1, "a.b"), group(ROOT, 2, "a-b")];
    const names = [...logicalNames(objects).values()];
    expect(new Set(names).size).toBe(2);
    expect(names).toEqual(objects.map((o) => `a-b-${o.uid.slice(-16)}`));
  });

  it("gives the variable of a reserved word or a leading digit the kind as prefix", () => {
    expect(variableName("9lives", "Identity")).toBe("identity9lives");
    expect(variableName("class", "RoleBinding")).toBe("roleBindingClass");
    expect(variableName("team-a", "Group")).toBe("teamA");
  });
});

describe("import-org program", () => {
  it("refers to built-in roles through getRole and to generated objects as variables", () => {
    const g = group(ROOT, 1, "payments");
    const id: OrgObject = {
      uid: uid(g.uid, 2),
      className: "Identity",
      baseName: "ci",
      parentUid: g.uid,
      args: {
        groupUid: { ref: g.uid },
        name: "ci",
        claimMatch: { fields: { issuer: "https://i", subject: "s" } },
      },
    };
    const b: OrgObject = {
      uid: uid(g.uid, 3),
      className: "RoleBinding",
      baseName: "ci-viewer",
      parentUid: g.uid,
      args: { groupUid: { ref: g.uid }, identityUid: { ref: id.uid }, roleUid: { ref: VIEWER.uid } },
    };
    const index = render([g, id, b])["index.ts"] as string;
    expect(index).toContain('const viewerRole = irv.iam.getRoleOutput({ name: "viewer" });');
    expect(index).toContain(
      `new irv.iam.RoleBinding("ci-viewer", { groupUid: payments.uid, identityUid: ci.uid, roleUid: viewerRole.uid }, { import: "${b.uid}" });`,
    );
    expect(index).toContain('claimMatch: { issuer: "https://i", subject: "s" }');
    expect(compiles(index)).toEqual([]);
  });

  it("makes a write-only field a required secret config value and lists it in the README", () => {
    const g = {
      ...group(ROOT, 1, "payments"),
      args: { parentUid: { ref: ROOT }, clientSecret: { secret: "clientSecret" } },
    };
    const files = render([g]);
    expect(files["index.ts"]).toContain('clientSecret: config.requireSecret("paymentsClientSecret")');
    expect(files["index.ts"]).toContain("const config = new pulumi.Config();");
    expect(files["README.md"]).toContain("pulumi config set --secret irv-org:paymentsClientSecret <value>");
  });

  it("keeps a reference outside the subtree as a literal uid and says so in the README", () => {
    const outside = `${ROOT}/ffffffffffffffff/0000000000000009`;
    const g = { ...group(ROOT, 1, "payments"), args: { parentUid: { ref: ROOT }, other: { ref: outside } } };
    const files = render([g]);
    expect(files["index.ts"]).toContain(`other: "${outside}"`);
    expect(files["README.md"]).toContain(`- \`${outside}\``);
  });
});

describe("import-org objects without a resource", () => {
  it("leaves them out of index.ts and lists them in the README", () => {
    const g = group(ROOT, 1, "payments");
    const aws: OrgObject = {
      uid: uid(g.uid, 2),
      className: "Identity",
      baseName: "aws",
      parentUid: g.uid,
      args: {},
      unsupported: "an identity other than a claimMatch of exactly issuer and subject",
    };
    const files = render([g, aws]);
    expect(files["index.ts"]).not.toContain(aws.uid);
    expect(files["README.md"]).toContain(`- \`${aws.uid}\` (Identity): an identity other than a claimMatch`);
  });
});
