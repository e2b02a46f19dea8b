// import-org generates the kinds of issue 45 — repos (synced and not), their tags and overlay
// bindings, overlays, subscriptions and the mappings of each identity provider — from one list per
// kind, with every reference between them a variable, in each format it writes. What Terraform's
// chainguard_image_* and chainguard_subscription made is adopted this way (docs/migrating.md).
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { OrgObject } from "../../../../provider/cli/org-kinds.js";
import {
  ORG_KINDS,
  REPO_README_NOT_GENERATED,
  SYNCED_TAG_NOT_GENERATED,
} from "../../../../provider/cli/org-kinds.js";
import type { ProgramInput } from "../../../../provider/cli/program-plan.js";
import { renderImportFile } from "../../../../provider/cli/render-import-file.js";
import { renderProgram } from "../../../../provider/cli/render-program.js";
import { renderYamlProgram } from "../../../../provider/cli/render-yaml-program.js";
import type { IrvClient } from "../../../../sdk/index.js";
import {
  ExternalGroupRoleMappingSchema,
  IdentityProviderSchema,
  OverlayBindingSchema,
  OverlaySchema,
  RepoSchema,
  SubscriptionSchema,
  TagSchema,
} from "../../../../sdk/index.js";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
const TEAM = `${ROOT}/00000000000000a1`;
// The synced repo's uid sorts before its source's: the program must still declare the source first.
const MIRROR = `${TEAM}/00000000000000b1`;
const APP = `${TEAM}/00000000000000b2`;
const TOOLS = `${TEAM}/00000000000000c1`;
const SSO = `${TEAM}/00000000000000d1`;
const SUBSCRIPTION = `${TEAM}/00000000000000e1`;
const OWNER = "f".repeat(32);
const T = "2026-11-21T10:00:00Z";
const DIGEST = `sha256:${"1".repeat(64)}`;
const ref = (expr: string) => `\${${expr}}`;

const repos = [
  RepoSchema.parse({
    uid: MIRROR,
    name: "app-mirror",
    catalogTier: "CATALOG_TIER_BASE",
    bundles: ["base"],
    sync_config: { source: APP, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" },
    customOverlay: { contents: { packages: ["bash"] }, environment: { TZ: "UTC" } },
    createTime: T,
  }),
  RepoSchema.parse({
    uid: APP,
    name: "app",
    description: "the app image",
    bundles: ["base"],
    aliases: ["app-fips"],
    createTime: T,
  }),
];
const tags = [
  TagSchema.parse({ uid: `${APP}/00000000000000f1`, name: "latest", digest: DIGEST, updateTime: T }),
  // Made by the mirror's sync, not by anyone's program.
  TagSchema.parse({ uid: `${MIRROR}/00000000000000f2`, name: "latest", digest: DIGEST, updateTime: T }),
];
const overlays = [
  OverlaySchema.parse({
    uid: TOOLS,
    name: "debug-tools",
    config: { contents: { packages: ["curl", "jq"] } },
  }),
];
const bindings = [
  OverlayBindingSchema.parse({
    uid: `${APP}/00000000000000f3`,
    repo: APP,
    overlay: { uid: TOOLS, name: "debug-tools" },
    tags: ["latest"],
  }),
];
const subscriptions = [
  SubscriptionSchema.parse({ uid: SUBSCRIPTION, sink: "https://hooks.example.com/irv" }),
];
const identityProviders = [
  IdentityProviderSchema.parse({
    uid: SSO,
    name: "sso",
    defaultRole: OWNER,
    oidc: { issuer: "https://accounts.example.com", clientId: "irv", pkceEnabled: true },
    createTime: T,
    updateTime: T,
  }),
];
const mappings = [
  ExternalGroupRoleMappingSchema.parse({
    uid: `${SSO}/00000000000000f4`,
    identityProviderUid: SSO,
    externalGroupId: "platform-admins",
    roleUid: OWNER,
    scope: ROOT,
    createTime: T,
  }),
];

// The reads these kinds make, answering as the API does (every page at once), and counted: a list
// per collection, never a GET per object (the fake has no get).
const reads: string[] = [];
const lists = <T>(name: string, items: T[]) => ({
  collectParallel: async () => {
    reads.push(name);
    return items;
  },
});
const client = {
  repos: lists("repos", repos),
  tags: lists("tags", tags),
  overlays: lists("overlays", overlays),
  overlayBindings: lists("overlayBindings", bindings),
  subscriptions: lists("subscriptions", subscriptions),
  identityProviders: lists("identityProviders", identityProviders),
  externalGroupRoleMappings: lists("externalGroupRoleMappings", mappings),
} as unknown as IrvClient;

const kinds = [
  "identityProviders",
  "externalGroupRoleMappings",
  "repos",
  "overlays",
  "tags",
  "overlayBindings",
  "subscriptions",
];
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
  roles: [{ uid: OWNER, name: "owner", description: "", capabilities: [] }],
  project: "irv-org",
  versions: { pulumiIrv: "0.1.0", pulumi: "3.270.0" },
  kinds: ["groups", ...kinds],
};
const generated = (className: string) => objects.filter((o) => o.className === className);

describe("import-org reads the new kinds", () => {
  it("with one list per collection, shared by the kinds that need it (a tag's repo, a mapping's identity provider)", () => {
    expect([...reads].sort()).toEqual([
      "externalGroupRoleMappings",
      "identityProviders",
      "overlayBindings",
      "overlays",
      "repos",
      "subscriptions",
      "tags",
    ]);
  });

  it("makes each object's arguments what the provider reads back, its references to other objects uids to resolve", () => {
    expect(generated("Repo").map((o) => o.args)).toEqual([
      {
        parentUid: { ref: TEAM },
        name: "app-mirror",
        // A synced repo's tier and bundles are its source's: not arguments.
        syncConfig: {
          fields: { source: { ref: APP }, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" },
        },
        customOverlay: {
          fields: {
            contents: { fields: { packages: ["bash"] } },
            environment: { fields: { TZ: "UTC" } },
          },
        },
      },
      {
        parentUid: { ref: TEAM },
        name: "app",
        description: "the app image",
        bundles: ["base"],
        aliases: ["app-fips"],
      },
    ]);
    expect(generated("Tag")).toEqual([
      {
        uid: `${APP}/00000000000000f1`,
        className: "Tag",
        baseName: "app-latest",
        parentUid: TEAM,
        args: { repoUid: { ref: APP }, name: "latest", digest: DIGEST },
      },
      expect.objectContaining({ uid: `${MIRROR}/00000000000000f2`, unsupported: SYNCED_TAG_NOT_GENERATED }),
    ]);
    expect(generated("OverlayBinding")[0]).toMatchObject({
      baseName: "app-debug-tools",
      parentUid: TEAM,
      args: { repoUid: { ref: APP }, overlay: { ref: TOOLS }, tags: ["latest"] },
    });
    expect(generated("Overlay")[0]).toMatchObject({
      baseName: "debug-tools",
      args: {
        parentUid: { ref: TEAM },
        name: "debug-tools",
        config: { fields: { contents: { fields: { packages: ["curl", "jq"] } } } },
      },
    });
    expect(generated("Subscription")[0]).toMatchObject({
      baseName: "hooks-example-com-irv",
      args: { parentUid: { ref: TEAM }, sink: "https://hooks.example.com/irv" },
    });
    expect(generated("ExternalGroupRoleMapping")[0]).toMatchObject({
      baseName: "sso-platform-admins",
      parentUid: TEAM,
      args: {
        identityProviderUid: { ref: SSO },
        externalGroupId: "platform-admins",
        roleUid: { ref: OWNER },
        scope: { ref: ROOT },
      },
    });
  });
});

describe("import-org writes the new kinds", () => {
  it("TypeScript: each class with the import option, references as variables, a repo after the repo it syncs from; it compiles", () => {
    const files = renderProgram(input);
    const index = files["index.ts"] as string;
    const lines = index.split("\n");
    const line = (name: string) => lines.findIndex((l) => l.includes(`(${JSON.stringify(name)},`));
    expect(index).toContain(
      `const app = new irv.registry.Repo("app", { parentUid: team.uid, name: "app", description: "the app image", bundles: ["base"], aliases: ["app-fips"] }, { import: "${APP}" });`,
    );
    expect(index).toContain(
      `new irv.registry.Repo("app-mirror", { parentUid: team.uid, name: "app-mirror", syncConfig: { source: app.uid, amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app" }, customOverlay: { contents: { packages: ["bash"] }, environment: { TZ: "UTC" } } }, { import: "${MIRROR}" });`,
    );
    expect(line("app")).toBeLessThan(line("app-mirror"));
    expect(index).toContain(
      `new irv.registry.Tag("app-latest", { repoUid: app.uid, name: "latest", digest: "${DIGEST}" }, { import: "${APP}/00000000000000f1" });`,
    );
    expect(index).toContain(
      'new irv.registry.OverlayBinding("app-debug-tools", { repoUid: app.uid, overlay: debugTools.uid, tags: ["latest"] }',
    );
    expect(index).toContain(
      'new irv.events.Subscription("hooks-example-com-irv", { parentUid: team.uid, sink:',
    );
    expect(index).toContain(
      'new irv.iam.ExternalGroupRoleMapping("sso-platform-admins", { identityProviderUid: sso.uid, externalGroupId: "platform-admins", roleUid: ownerRole.uid, scope: rootUid }',
    );
    expect(index).not.toContain("readme");
    expect(
      ts.transpileModule(index, {
        reportDiagnostics: true,
        compilerOptions: { module: ts.ModuleKind.CommonJS },
      }).diagnostics,
    ).toEqual([]);
    const readme = files["README.md"] as string;
    expect(readme).toContain(REPO_README_NOT_GENERATED);
    expect(readme).toContain(`\`irv.registry.Tag\`: ${SYNCED_TAG_NOT_GENERATED}.`);
    expect(readme).toContain(`- \`${MIRROR}/00000000000000f2\``);
    expect(readme).toContain("| `irv.registry.OverlayBinding` | 1 |");
  });

  it("Pulumi YAML: the native tokens, references interpolated", () => {
    const program = parse(renderYamlProgram(input)["Pulumi.yaml"] as string) as {
      resources: Record<
        string,
        { type: string; name?: string; properties: Record<string, unknown>; options: unknown }
      >;
    };
    expect(program.resources.appLatest).toEqual({
      type: "irv:registry:Tag",
      name: "app-latest",
      properties: { repoUid: ref("app.uid"), name: "latest", digest: DIGEST },
      options: { import: `${APP}/00000000000000f1` },
    });
    expect(program.resources.appDebugTools?.properties).toEqual({
      repoUid: ref("app.uid"),
      overlay: ref("debugTools.uid"),
      tags: ["latest"],
    });
    expect(program.resources.appMirror?.properties.syncConfig).toEqual({
      source: ref("app.uid"),
      amazon: "123456789012.dkr.ecr.us-east-1.amazonaws.com/app",
    });
    expect(program.resources.ssoPlatformAdmins).toMatchObject({
      type: "irv:iam:ExternalGroupRoleMapping",
      properties: {
        identityProviderUid: ref("sso.uid"),
        roleUid: ref("ownerRole.uid"),
        scope: ref("rootUid"),
      },
    });
    expect(program.resources.hooksExampleComIrv?.type).toBe("irv:events:Subscription");
    expect(program.resources.debugTools?.type).toBe("irv:registry:Overlay");
  });

  it("Pulumi's bulk import file: every generated object under its native token, a synced repo's tags left out with why", () => {
    const { files, skipped } = renderImportFile([team, ...objects]);
    const { resources } = JSON.parse(files["import.json"] as string) as {
      resources: { type: string; name: string; id: string }[];
    };
    expect(resources.map((r) => r.type).sort()).toEqual([
      "irv:events:Subscription",
      "irv:iam:ExternalGroupRoleMapping",
      "irv:iam:Group",
      "irv:iam:IdentityProvider",
      "irv:registry:Overlay",
      "irv:registry:OverlayBinding",
      "irv:registry:Repo",
      "irv:registry:Repo",
      "irv:registry:Tag",
    ]);
    expect(skipped.map((s) => [s.object.uid, s.reason])).toEqual([
      [`${MIRROR}/00000000000000f2`, SYNCED_TAG_NOT_GENERATED],
    ]);
  });
});
