// docs/api is a build output of the schema (`npm run schema`): a page per resource and function, in
// the registry's layout, with each property's name in every language.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_DOCS_DIR, apiDocs } from "../../../scripts/api-docs.ts";
import { SCHEMA_FILE } from "../../../scripts/plugin-schema.ts";

const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));
const pages = apiDocs(schema);

describe("docs/api", () => {
  it("is exactly what `npm run schema` makes of schema.json", () => {
    expect(readdirSync(API_DOCS_DIR).sort()).toEqual([...pages.keys()].sort());
    for (const [name, text] of pages)
      expect(readFileSync(path.join(API_DOCS_DIR, name), "utf8"), `docs/api/${name}`).toBe(text);
  });

  it("has a page for every resource and function of the schema, linked from the index", () => {
    const index = pages.get("README.md") ?? "";
    for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)])
      expect(index).toContain(`\`${token}\``);
    expect(pages.size).toBe(Object.keys(schema.resources).length + Object.keys(schema.functions).length + 1);
  });

  it("documents the group's inputs with their Python and Go names, the replace flag and the import id", () => {
    const group = pages.get("iam-group.md") ?? "";
    expect(group).toContain(
      "| `parentUid` | `parent_uid` | `ParentUid` | string | required, replaces on change |",
    );
    expect(group).toContain("$ pulumi import irv:iam:Group <name> <uid>");
    expect(group).toContain("`iam.NewGroup(ctx, name, &iam.GroupArgs{…})`");
  });

  it("marks the identity provider's client secret as secret, in its supporting type", () => {
    const idp = pages.get("iam-identity-provider.md") ?? "";
    expect(idp).toMatch(/\| `clientSecret` \| `client_secret` \| `ClientSecret` \| string \| secret \|/);
  });

  it("names the Go lookup as the Go SDK does (LookupRole for a kind's own get, GetRoles for a list)", () => {
    expect(pages.get("iam-get-role.md")).toContain("iam.LookupRole(ctx, &iam.LookupRoleArgs{…})");
    expect(pages.get("iam-get-roles.md")).toContain("iam.GetRoles(ctx, &iam.GetRolesArgs{…})");
    // A lookup's result is typed: a role's fields, not a map.
    expect(pages.get("iam-get-roles.md")).toContain("### GetRolesRoles");
  });
});
