import ts from "typescript";
import { describe, expect, it } from "vitest";
import { logicalNames, variableName } from "../../../../provider/cli/logical-names.js";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import { argsOf, INVITE_NOT_GENERATED, slug } from "../../../../provider/cli/org-kinds.js";
import { renderProgram } from "../../../../provider/cli/render-program.js";
import {
  accountAssociationsKind,
  identityKind,
  identityProviderKind,
  roleKind,
} from "../../../../provider/runtime/index.js";
import { AccountAssociationsSchema } from "../../../../sdk/index.js";

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

  it("regression (a group and its account association share a uid: the program declared one variable twice): each object has its own variable, and refs to the uid name the group", () => {
    const payments = group(ROOT, 1, "payments");
    const search = group(ROOT, 2, "search");
    const association = (g: OrgObject): OrgObject => ({
      uid: g.uid,
      className: "AccountAssociations",
      baseName: "clouds",
      parentUid: g.uid,
      args: { groupUid: { ref: g.uid }, name: "clouds" },
    });
    const index = render([payments, search, association(payments), association(search)])[
      "index.ts"
    ] as string;
    const declared = [...index.matchAll(/^const (\w+) =/gm)].map((m) => m[1]);
    expect(new Set(declared).size).toBe(declared.length);
    expect(index).toContain(
      `const paymentsClouds = new irv.iam.AccountAssociations("payments-clouds", { groupUid: payments.uid, name: "clouds" }, { import: "${payments.uid}" });`,
    );
    expect(index).toContain('new irv.iam.AccountAssociations("search-clouds", { groupUid: search.uid');
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

  it("refers to a built-in role by uid when a custom role has its name (getRole would find two)", () => {
    const g = group(ROOT, 1, "payments");
    const b: OrgObject = {
      uid: uid(g.uid, 3),
      className: "RoleBinding",
      baseName: "ci-viewer",
      parentUid: g.uid,
      args: { groupUid: { ref: g.uid }, identityUid: { ref: uid(g.uid, 2) }, roleUid: { ref: VIEWER.uid } },
    };
    const files = renderProgram({
      rootUid: ROOT,
      objects: [g, b],
      roles: [VIEWER, { ...VIEWER, uid: "bbbb", parentUid: g.uid }],
      project: "irv-org",
      versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" },
      kinds: ["groups", "roleBindings"],
    });
    const index = files["index.ts"] as string;
    expect(index).toContain(
      'const viewerRole = { uid: "aaaa" }; // built-in "viewer": a custom role has its name too',
    );
    expect(index).toContain("roleUid: viewerRole.uid");
    expect(index).not.toContain("getRoleOutput");
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
  it("leaves group invites out of index.ts and lists them in the README under one reason", () => {
    const g = group(ROOT, 1, "payments");
    const invite = (n: number): OrgObject => ({
      uid: uid(g.uid, n),
      className: "GroupInvite",
      baseName: "invite",
      parentUid: g.uid,
      args: {},
      unsupported: INVITE_NOT_GENERATED,
    });
    const files = render([g, invite(2), invite(3)]);
    expect(files["index.ts"]).not.toContain(invite(2).uid);
    const readme = files["README.md"] as string;
    expect(readme.split(INVITE_NOT_GENERATED).length).toBe(2);
    expect(readme).toContain(
      `\`irv.iam.GroupInvite\`: ${INVITE_NOT_GENERATED}.\n\n- \`${invite(2).uid}\`\n- \`${invite(3).uid}\``,
    );
  });
});

describe("import-org arguments of every kind", () => {
  const SERVER_TIMES = { createTime: "2026-01-01T00:00:00Z", updateTime: "2026-01-01T00:00:00Z" };
  const payments = uid(ROOT, 1);

  it("turns a custom role into a Role with its capabilities, and a binding to it into a variable", () => {
    const role = {
      uid: "0123456789abcdef",
      parentUid: payments,
      name: "auditor",
      description: "",
      capabilities: ["roles.list", "groups.list"],
      ...SERVER_TIMES,
    };
    const args = argsOf(roleKind.inputsOf(role), ["parentUid"]);
    expect(args).toEqual({
      parentUid: { ref: payments },
      name: "auditor",
      capabilities: ["groups.list", "roles.list"],
    });
    const g = group(ROOT, 1, "payments");
    const r: OrgObject = { uid: role.uid, className: "Role", baseName: "auditor", parentUid: payments, args };
    const b: OrgObject = {
      uid: uid(payments, 9),
      className: "RoleBinding",
      baseName: "ci-auditor",
      parentUid: payments,
      args: {
        groupUid: { ref: payments },
        identityUid: { ref: uid(payments, 8) },
        roleUid: { ref: role.uid },
      },
    };
    const index = render([g, r, b])["index.ts"] as string;
    expect(index).toContain(
      `const auditor = new irv.iam.Role("auditor", { parentUid: payments.uid, name: "auditor", capabilities: ["groups.list", "roles.list"] }, { import: "${role.uid}" });`,
    );
    expect(index).toContain("roleUid: auditor.uid");
    expect(index).not.toContain("getRoleOutput");
    expect(compiles(index)).toEqual([]);
  });

  it("writes every identity variant as the provider reads it, quoting claim names that are not identifiers", () => {
    const identity = (fields: object) => ({ uid: uid(payments, 2), name: "ci", ...fields, ...SERVER_TIMES });
    expect(
      argsOf(
        identityKind.inputsOf(
          identity({
            claimMatch: {
              issuer: "https://token.actions.githubusercontent.com",
              subjectPattern: "repo:acme/app:.*",
              claims: { repository_owner: "acme", "https://x/groups": "ops" },
            },
          }),
        ),
        ["groupUid"],
      ),
    ).toEqual({
      groupUid: { ref: payments },
      name: "ci",
      claimMatch: {
        fields: {
          issuer: "https://token.actions.githubusercontent.com",
          subjectPattern: "repo:acme/app:.*",
          claims: { fields: { repository_owner: "acme", "https://x/groups": "ops" } },
        },
      },
    });
    const aws = argsOf(identityKind.inputsOf(identity({ awsIdentity: { awsAccount: "123456789012" } })), []);
    expect(aws.awsIdentity).toEqual({ fields: { awsAccount: "123456789012" } });
    const sp = argsOf(
      identityKind.inputsOf(identity({ servicePrincipal: "SERVICE_PRINCIPAL_INGESTER" })),
      [],
    );
    expect(sp.servicePrincipal).toBe("SERVICE_PRINCIPAL_INGESTER");
    const keys = JSON.stringify({ keys: [{ kty: "EC" }] });
    const st = argsOf(
      identityKind.inputsOf(
        identity({
          staticKeys: {
            issuer: "https://ci",
            subject: "d",
            issuerKeys: keys,
            expirationTime: "2027-01-01T00:00:00Z",
            audiences: ["ci"],
          },
        }),
      ),
      [],
    );
    expect(st.staticKeys).toEqual({
      fields: {
        issuer: "https://ci",
        subject: "d",
        issuerKeys: keys,
        expirationTime: "2027-01-01T00:00:00Z",
        audiences: ["ci"],
      },
    });
    const g = group(ROOT, 1, "payments");
    const withClaims: OrgObject = {
      uid: uid(payments, 2),
      className: "Identity",
      baseName: "ci",
      parentUid: payments,
      args: {
        claimMatch: {
          fields: { claims: { fields: { repository_owner: "acme", "https://x/groups": "ops" } } },
        },
      },
    };
    const index = render([g, withClaims])["index.ts"] as string;
    expect(index).toContain('claims: { repository_owner: "acme", "https://x/groups": "ops" }');
    expect(compiles(index)).toEqual([]);
  });

  it("makes an identity provider's client secret a secret config entry and its default role a reference", () => {
    const idp = {
      uid: uid(payments, 3),
      name: "sso",
      defaultRole: VIEWER.uid,
      oidc: {
        issuer: "https://accounts.example.com",
        clientId: "irv",
        additionalScopes: ["email"],
        correlationRule: "CORRELATION_RULE_UNSPECIFIED",
        pkceEnabled: false,
      },
      ...SERVER_TIMES,
    };
    const args = argsOf(
      identityProviderKind.inputsOf(idp),
      ["parentUid", "defaultRoleUid"],
      ["oidc.clientSecret"],
    );
    expect(args).toEqual({
      parentUid: { ref: payments },
      name: "sso",
      defaultRoleUid: { ref: VIEWER.uid },
      oidc: {
        fields: {
          issuer: "https://accounts.example.com",
          clientId: "irv",
          additionalScopes: ["email"],
          clientSecret: { secret: "clientSecret" },
        },
      },
    });
    const o: OrgObject = {
      uid: idp.uid,
      className: "IdentityProvider",
      baseName: "sso",
      parentUid: payments,
      args,
    };
    const files = render([group(ROOT, 1, "payments"), o]);
    expect(files["index.ts"]).toContain("defaultRoleUid: viewerRole.uid");
    expect(files["index.ts"]).toContain('clientSecret: config.requireSecret("ssoClientSecret")');
    expect(files["README.md"]).toContain("pulumi config set --secret irv-org:ssoClientSecret <value>");
    expect(files["README.md"]).toContain(
      `- \`ssoClientSecret\`: the clientSecret of \`irv.iam.IdentityProvider\` "sso" (\`${idp.uid}\`)`,
    );
    expect(compiles(files["index.ts"] as string)).toEqual([]);
  });

  it("writes a public (PKCE) identity provider's groups claim, PKCE and correlation rule, and asks for no secret", () => {
    const idp = {
      uid: uid(payments, 4),
      name: "entra",
      defaultRole: VIEWER.uid,
      oidc: {
        issuer: "https://login.microsoftonline.com/t/v2.0",
        clientId: "cli",
        additionalScopes: [],
        groupsClaim: "groups",
        correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
        pkceEnabled: true,
      },
      ...SERVER_TIMES,
    };
    const args = argsOf(
      identityProviderKind.inputsOf(idp),
      ["parentUid", "defaultRoleUid"],
      ["oidc.clientSecret"],
    );
    const o: OrgObject = {
      uid: idp.uid,
      className: "IdentityProvider",
      baseName: "entra",
      parentUid: payments,
      args,
    };
    const files = render([group(ROOT, 1, "payments"), o]);
    const index = files["index.ts"] as string;
    expect(index).toContain('groupsClaim: "groups"');
    expect(index).toContain("pkceEnabled: true");
    expect(index).toContain('correlationRule: "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"');
    expect(index).not.toContain("clientSecret");
    expect(files["README.md"]).not.toContain("entraClientSecret");
    expect(compiles(index)).toEqual([]);
  });

  it("writes account associations with their provider blocks, under the group whose uid they carry", () => {
    const a = AccountAssociationsSchema.parse({
      uid: payments,
      name: "prod",
      description: "",
      amazon: { account: "123456789012" },
      google: null,
      azure: null,
      chainguard: null,
      github: { appInstallations: { "77": { installations: [{ installationId: "42", name: "acme" }] } } },
      ...SERVER_TIMES,
    });
    expect(argsOf(accountAssociationsKind.inputsOf(a), ["groupUid"])).toEqual({
      groupUid: { ref: payments },
      name: "prod",
      amazon: { fields: { account: "123456789012" } },
      github: {
        fields: {
          appInstallations: {
            fields: {
              "77": { fields: { installations: [{ fields: { installationId: "42", name: "acme" } }] } },
            },
          },
        },
      },
    });
  });
});
