// Conformance of the capability table and the built-in roles' sets with the published definitions
// (chainguard-dev/sdk proto/capabilities/{capabilities.proto,roles.go} at 934f495), as kept in
// test/wire-facts.ts: every row is a published enum value with its number and `(name)`, and each
// built-in role holds exactly its published bundle within the table.
import { describe, expect, it } from "vitest";
import type { BuiltInRoleName } from "../../../sdk/index.js";
import { BUILT_IN_ROLE_CAPABILITIES, BUILT_IN_ROLE_NAMES, CAPABILITY_TABLE } from "../../../sdk/index.js";
import { PUBLISHED_CAPABILITIES, PUBLISHED_CAPABILITY_BUNDLES } from "../../wire-facts.js";

type Bundle = keyof typeof PUBLISHED_CAPABILITY_BUNDLES;

function bundle(name: Bundle): Set<string> {
  const b: { own: readonly string[]; includes?: readonly string[] } = PUBLISHED_CAPABILITY_BUNDLES[name];
  return new Set([...b.own, ...(b.includes ?? []).flatMap((i) => [...bundle(i as Bundle)])]);
}

const inTable = (wire: Iterable<string>) =>
  CAPABILITY_TABLE.filter((c) => new Set(wire).has(c.wire))
    .map((c) => c.name)
    .sort();

// The published bundle of each built-in role (limited_owner: the built-in roles reference).
const PUBLISHED_ROLE: Record<BuiltInRoleName, () => Set<string>> = {
  owner: () => bundle("OwnerCaps"),
  editor: () => bundle("EditorCaps"),
  viewer: () => bundle("ViewerCaps"),
  limited_owner: () =>
    new Set([...bundle("ViewerCaps"), "CAP_IAM_IDENTITY_CREATE", "CAP_IAM_ROLE_BINDINGS_CREATE"]),
  "registry.pull": () => bundle("RegistryPullCaps"),
  "registry.pull_token_creator": () => bundle("RegistryPullTokenCreatorCaps"),
  "apk.pull": () => bundle("APKPullCaps"),
};

describe("the capability table against the published enum", () => {
  it("names every row's published value, number and display name", () => {
    for (const row of CAPABILITY_TABLE) {
      expect(PUBLISHED_CAPABILITIES[row.wire], row.wire).toEqual([row.number, row.name]);
    }
  });

  it("holds the registry and package values the built-in roles carry", () => {
    const wires = CAPABILITY_TABLE.map((c) => c.wire);
    for (const w of ["CAP_REPO_BLOBS_GET", "CAP_MANIFEST_LIST", "CAP_APK_LIST", "CAP_APK_BLOBS_GET"]) {
      expect(wires).toContain(w);
    }
  });
});

describe("built-in roles as published", () => {
  it.each(BUILT_IN_ROLE_NAMES)("%s holds its published set within the table", (name) => {
    expect([...BUILT_IN_ROLE_CAPABILITIES[name]].sort()).toEqual(inTable(PUBLISHED_ROLE[name]()));
  });

  it("owner holds every capability of the table but the internal-only repo.internal.admin, as OwnerCaps does", () => {
    expect(inTable(bundle("OwnerCaps"))).toEqual(
      CAPABILITY_TABLE.map((c) => c.name)
        .filter((c) => c !== "repo.internal.admin")
        .sort(),
    );
  });

  it("registry.pull lists repos and tags and pulls, and writes nothing", () => {
    const pull = BUILT_IN_ROLE_CAPABILITIES["registry.pull"];
    expect(pull).toEqual(expect.arrayContaining(["repo.list", "tag.list", "groups.list", "repo.blobs.get"]));
    expect(pull.filter((c) => /\.(create|update|delete)$/.test(c))).toEqual([]);
  });

  it("registry.pull_token_creator may make pull tokens: identities and bindings, nothing else written", () => {
    expect(
      BUILT_IN_ROLE_CAPABILITIES["registry.pull_token_creator"].filter((c) =>
        /\.(create|update|delete)$/.test(c),
      ),
    ).toEqual(["role_bindings.create", "identity.create"]);
  });
});
