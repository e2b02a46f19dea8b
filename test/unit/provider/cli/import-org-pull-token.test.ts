// import-org adopts a pull token as `irv.registry.PullToken` (issue 40: it came out as an
// `irv.iam.Identity` plus an `irv.iam.RoleBinding`, and the renderers knew only `irv.iam.*`): the
// token's identity and binding are one resource, in every language import-org writes — the
// TypeScript program, the Pulumi YAML program and Pulumi's bulk import file.
import ts from "typescript";
import { expect, it } from "vitest";
import { parse } from "yaml";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import { ORG_KINDS } from "../../../../provider/cli/org-kinds.js";
import type { ProgramInput } from "../../../../provider/cli/program-plan.js";
import { renderImportFile } from "../../../../provider/cli/render-import-file.js";
import { renderProgram } from "../../../../provider/cli/render-program.js";
import { renderYamlProgram } from "../../../../provider/cli/render-yaml-program.js";
import { PULL_TOKEN_ISSUER } from "../../../../provider/runtime/index.js";
import type { IrvClient } from "../../../../sdk/index.js";
import { IdentitySchema, RoleBindingSchema } from "../../../../sdk/index.js";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const TEAM = `${ROOT}/00000000000000a1`;
const TOKEN = `${TEAM}/00000000000000b2`;
const CI = `${TEAM}/00000000000000c3`;
const PULL = "f".repeat(32);
const VIEWER = "e".repeat(32);
const T = "2026-11-21T10:00:00Z";
// A Pulumi YAML interpolation, `${expr}`.
const ref = (expr: string) => `\${${expr}}`;

const identities = [
  IdentitySchema.parse({
    uid: TOKEN,
    // A pull token's identity is named after the token and its expiration.
    name: "k8s-pull-20261221T100000Z",
    description: "Image pulls of the cluster",
    staticKeys: {
      issuer: PULL_TOKEN_ISSUER,
      subject: "pull-token",
      issuerKeys: '{"keys":[]}',
      expirationTime: "2026-12-21T10:00:00Z",
      audiences: ["cgr.dev"],
    },
    createTime: T,
    updateTime: T,
  }),
  IdentitySchema.parse({
    uid: CI,
    name: "ci",
    claimMatch: { issuer: "https://issuer.example", subject: "repo:acme/app:ref:refs/heads/main" },
    createTime: T,
    updateTime: T,
  }),
];
const binding = (n: string, identity: (typeof identities)[number], role: { uid: string; name: string }) =>
  RoleBindingSchema.parse({
    uid: `${TEAM}/${n}`,
    identity: { uid: identity.uid, name: identity.name },
    group: { uid: TEAM, name: "team" },
    role,
    createTime: T,
  });
const bindings = [
  binding("00000000000000d4", identities[0]!, { uid: PULL, name: "registry.pull" }),
  binding("00000000000000e5", identities[1]!, { uid: VIEWER, name: "viewer" }),
];

// The reads these kinds make, answering as the API does (every page at once).
const client = {
  identities: { collectParallel: async () => identities },
  roleBindings: { collectParallel: async () => bindings },
} as unknown as IrvClient;

const kinds = ["identities", "roleBindings", "pullTokens"];
const objects: OrgObject[] = (
  await Promise.all(ORG_KINDS.filter((k) => kinds.includes(k.kind)).map((k) => k.list(client, ROOT)))
).flat();
const team: OrgObject = {
  uid: TEAM,
  className: "Group",
  baseName: "team",
  parentUid: ROOT,
  args: { parentUid: { ref: ROOT }, name: "team" },
};
const input: ProgramInput = {
  rootUid: ROOT,
  objects: [team, ...objects],
  roles: [
    { uid: PULL, name: "registry.pull", description: "", capabilities: [] },
    { uid: VIEWER, name: "viewer", description: "", capabilities: [] },
  ],
  project: "irv-org",
  versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" },
  kinds: ["groups", ...kinds],
};

it("the token's identity and binding are one PullToken (named without the stamp), not an Identity and a RoleBinding", () => {
  expect(objects.map((o) => [o.className, o.uid])).toEqual([
    ["Identity", CI],
    ["RoleBinding", `${TEAM}/00000000000000e5`],
    ["PullToken", TOKEN],
  ]);
  expect(objects.find((o) => o.className === "PullToken")).toMatchObject({
    baseName: "k8s-pull",
    parentUid: TEAM,
    args: {
      groupUid: { ref: TEAM },
      name: "k8s-pull",
      description: "Image pulls of the cluster",
      roleUid: { ref: PULL },
    },
  });
});

it("TypeScript: new irv.registry.PullToken with the import option, its group and role as variables; it compiles", () => {
  const files = renderProgram(input);
  const index = files["index.ts"] as string;
  expect(index).toContain(
    `const k8sPull = new irv.registry.PullToken("k8s-pull", { groupUid: team.uid, name: "k8s-pull", description: "Image pulls of the cluster", roleUid: registryPullRole.uid }, { import: "${TOKEN}" });`,
  );
  expect(index).toContain('const registryPullRole = irv.iam.getRoleOutput({ name: "registry.pull" });');
  expect(index).toContain('new irv.iam.Identity("ci"');
  expect(index).not.toMatch(/irv\.iam\.(Identity|RoleBinding)\("k8s-pull/);
  const diagnostics = ts.transpileModule(index, { reportDiagnostics: true }).diagnostics ?? [];
  expect(diagnostics).toEqual([]);
  expect(files["README.md"]).toContain("| `irv.registry.PullToken` | 1 |");
});

it("Pulumi YAML: type irv:registry:PullToken with the import option, its group and role interpolated", () => {
  const files = renderYamlProgram(input);
  const program = parse(files["Pulumi.yaml"] as string) as {
    resources: Record<string, { type: string; name?: string; properties: object; options: object }>;
  };
  expect(program.resources.k8sPull).toEqual({
    type: "irv:registry:PullToken",
    name: "k8s-pull",
    properties: {
      groupUid: ref("team.uid"),
      name: "k8s-pull",
      description: "Image pulls of the cluster",
      roleUid: ref("registryPullRole.uid"),
    },
    options: { import: TOKEN },
  });
  expect(Object.values(program.resources).map((r) => r.type)).toEqual([
    "irv:iam:Group",
    "irv:iam:Identity",
    "irv:iam:RoleBinding",
    "irv:registry:PullToken",
  ]);
  expect(files["README.md"]).toContain("| `irv:registry:PullToken` | 1 |");
});

it("Pulumi's bulk import file: the token as irv:registry:PullToken, its uid the id", () => {
  const { files, skipped } = renderImportFile(input.objects);
  expect(skipped).toEqual([]);
  expect(JSON.parse(files["import.json"] as string).resources).toContainEqual({
    type: "irv:registry:PullToken",
    name: "k8s-pull",
    id: TOKEN,
  });
});

it("a second read with the same client lists anew (the lists are shared while in flight only)", async () => {
  let reads = 0;
  const counting = {
    identities: {
      collectParallel: async () => {
        reads++;
        return identities;
      },
    },
    roleBindings: { collectParallel: async () => bindings },
  } as unknown as IrvClient;
  const read = () =>
    Promise.all(ORG_KINDS.filter((k) => kinds.includes(k.kind)).map((k) => k.list(counting, ROOT)));
  await read();
  expect(reads).toBe(1);
  await read();
  expect(reads).toBe(2);
});
