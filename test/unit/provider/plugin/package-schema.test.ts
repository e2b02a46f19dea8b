import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { packageSchema, resourceToken } from "../../../../provider/plugin/index.js";
import { KIND_DEFINITIONS } from "../../../../provider/runtime/index.js";
import { RESOURCE_TYPES } from "../../../../provider/stub/index.js";
import { SCHEMA_FILE, schemaText } from "../../../../scripts/plugin-schema.ts";
import { schemaDocs } from "../../../../scripts/plugin-schema-docs.ts";

const version = (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
const generated = packageSchema(version, schemaDocs());
const checkedIn = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as ReturnType<typeof packageSchema>;
type ResourceSpec = {
  inputProperties: Record<string, { replaceOnChanges?: boolean; secret?: boolean; $ref?: string }>;
  properties: Record<string, { secret?: boolean }>;
  requiredInputs: string[];
  description: string;
};
const resource = (type: string) => checkedIn.resources[resourceToken(type as never)] as ResourceSpec;

describe("the native plugin's schema.json", () => {
  // Regression (issue 34): these were `pulumi.json#/Any`, so every language's SDK took anything.
  it("types an invite role's capabilities and a GitHub installation id as strings, and the non-text settings", () => {
    const types = checkedIn.types as Record<string, { properties: Record<string, unknown> }>;
    expect(types["irv:iam:GroupInviteRole"]?.properties.capabilities).toEqual({
      type: "array",
      items: { type: "string" },
    });
    expect(
      types["irv:iam:AccountAssociationsGithubAppInstallationsInstallations"]?.properties.installationId,
    ).toEqual({
      type: "string",
    });
    const config = checkedIn.config.variables as Record<string, { type: string; description: string }>;
    const inputs = checkedIn.provider.inputProperties as Record<string, { type?: string }>;
    const typeOf = (k: string) => [config[k]?.type, inputs[k]?.type];
    expect(typeOf("allowInsecureHttp")).toEqual(["boolean", "boolean"]);
    for (const k of ["maxRequestsPerSecond", "maxRateLimitWaitSeconds", "timeoutSeconds"])
      expect(typeOf(k), k).toEqual(["number", "number"]);
    for (const k of ["maxRetries", "retryDelayMs", "retryMaxDelayMs"])
      expect(typeOf(k), k).toEqual(["integer", "integer"]);
    expect(config.maxRetries?.description).toBe(
      "A whole number from 0 to 100. Falls back to the environment variable IRV_MAX_RETRIES.",
    );
    expect(typeOf("baseUrl")).toEqual(["string", "string"]);
  });

  it("is what the kind table, the settings and the TypeScript docs generate (run `npm run schema` after changing them)", () => {
    // Compared as data: the file is formatted by Biome like every other JSON file of the repository.
    expect(checkedIn).toEqual(JSON.parse(schemaText(generated)));
  });

  it("has one resource per kind, each input with its replace rule, and the import id documented", () => {
    expect(Object.keys(checkedIn.resources).sort()).toEqual(
      RESOURCE_TYPES.map((t) => resourceToken(t)).sort(),
    );
    for (const type of RESOURCE_TYPES) {
      const kind = KIND_DEFINITIONS[type];
      const spec = resource(type);
      expect(Object.keys(spec.inputProperties)).toEqual(expect.arrayContaining([...kind.inputKeys]));
      for (const key of kind.replaceKeys)
        expect(spec.inputProperties[key]?.replaceOnChanges, `${type}.${key}`).toBe(true);
      for (const key of kind.mutableKeys)
        expect(spec.inputProperties[key]?.replaceOnChanges, `${type}.${key}`).toBeUndefined();
      expect(spec.description).toContain(`pulumi import ${resourceToken(type)} <name> <uid>`);
      expect(spec.properties).toHaveProperty("uid");
    }
  });

  it("marks credentials secret: irv:token, an invite's code, an identity provider's client secret", () => {
    const config = checkedIn.config.variables as Record<string, { secret?: boolean }>;
    expect(config.token?.secret).toBe(true);
    expect(config.identityToken?.secret).toBe(true);
    expect(config.baseUrl?.secret).toBeUndefined();
    expect(resource("GroupInvite").properties.code?.secret).toBe(true);
    const oidc = resource("IdentityProvider").inputProperties.oidc?.$ref?.replace("#/types/", "") ?? "";
    const oidcType = (
      checkedIn.types as Record<string, { properties: Record<string, { secret?: boolean }> }>
    )[oidc];
    expect(oidcType?.properties.clientSecret?.secret).toBe(true);
  });

  it("lets a program leave out name (it defaults to the logical name) but not a parent", () => {
    expect(resource("Group").requiredInputs).toEqual(["parentUid"]);
  });

  it("serves every lookup as a function with its arguments, e.g. irv:iam:getRole({name, parentUid})", () => {
    const fns = checkedIn.functions as Record<
      string,
      { inputs: { properties: object; required?: string[] } }
    >;
    expect(Object.keys(fns)).toEqual(
      expect.arrayContaining([
        "irv:iam:getRoles",
        "irv:iam:getRole",
        "irv:registry:getRepos",
        "irv:vulnerabilities:getAdvisories",
      ]),
    );
    expect(Object.keys(fns["irv:iam:getRole"]?.inputs.properties ?? {})).toEqual(["name", "parentUid"]);
    expect(fns["irv:iam:getRole"]?.inputs.required).toEqual(["name"]);
  });

  // Regression: getRepo and getRepos answered `sync_config`, which Go's generator made the field
  // `Sync_config` of the type `GetRepoSync_config` (Go takes a property's name as is, capitalized).
  it("names every property and type in lowerCamelCase / PascalCase, so each language gets its own style", () => {
    const snake: string[] = [];
    const visit = (value: unknown, where: string): void => {
      if (typeof value !== "object" || value === null) return;
      for (const [key, child] of Object.entries(value)) {
        if (
          (key === "properties" || key === "inputProperties") &&
          typeof child === "object" &&
          child !== null
        )
          for (const name of Object.keys(child)) if (name.includes("_")) snake.push(`${where}.${name}`);
        visit(child, `${where}/${key}`);
      }
    };
    visit(checkedIn, "schema");
    snake.push(...Object.keys(checkedIn.types).filter((token) => token.includes("_")));
    expect(snake).toEqual([]);
  });
});
