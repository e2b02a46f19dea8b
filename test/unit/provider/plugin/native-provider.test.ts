import { describe, expect, it } from "vitest";
import {
  isSecretValue,
  NativeProvider,
  resourceTokens,
  unwrapSecrets,
  wrapSecrets,
} from "../../../../provider/plugin/index.js";
import { UNKNOWN } from "../../../../provider/runtime/index.js";

const ORG = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ORG}/0123456789abcdef`;

describe("NativeProvider (the plugin's operations on plain values)", () => {
  const provider = new NativeProvider(resourceTokens());

  it("names the changed field and whether it replaces, for `pulumi preview --diff`", () => {
    const olds = { parentUid: ORG, name: "platform", description: "a", uid: GROUP };
    expect(
      provider.diff("irv:iam:Group", olds, { parentUid: ORG, name: "platform", description: "b" }),
    ).toEqual({
      changed: ["description"],
      replaces: [],
      deleteBeforeReplace: false,
      detailed: { description: { kind: "update", replace: false } },
    });
    const moved = provider.diff("irv:iam:Group", olds, {
      parentUid: GROUP,
      name: "platform",
      description: "a",
    });
    expect(moved.detailed).toEqual({ parentUid: { kind: "update", replace: true } });
    expect(provider.diff("irv:iam:Group", { ...olds, description: undefined }, { ...olds }).detailed).toEqual(
      {
        description: { kind: "add", replace: false },
      },
    );
  });

  // Regression (issue 34): through the plugin a bad capability read "… (got a string of 10
  // characters)"; the engine prints `property capabilities.0 value {<nil>} has a problem: <reason>`
  // (it looks the dotted path up as one key), so the reason must name the value and the known list.
  it("names a bad capability and the known ones, without describing its shape", async () => {
    const { failures } = await provider.check("irv:iam:Role", "r", {
      parentUid: ORG,
      capabilities: ["groups.lst"],
    });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("capabilities.0");
    expect(failures[0]?.reason).toMatch(
      /^role capabilities\.0 "groups\.lst" is not a capability; known: groups\.create, .*, advisories\.list$/,
    );
    expect(failures[0]?.reason).toContain("groups.list, ");
  });

  it("gives a group the logical name when the program sets none, and checks before any call", async () => {
    const ok = await provider.check("irv:iam:Group", "platform", { parentUid: ORG });
    expect(ok).toEqual({ inputs: { parentUid: ORG, name: "platform" }, failures: [] });
    const bad = await provider.check("irv:iam:Group", "Platform Team", { parentUid: "nope" });
    expect(bad.failures.map((f) => f.property).sort()).toEqual(["name", "parentUid"]);
  });

  it("previews a create with the server's outputs unknown and calls nothing", async () => {
    const { outs } = await provider.create("irv:iam:Group", { parentUid: ORG, name: "platform" }, true);
    expect(outs).toMatchObject({ parentUid: ORG, name: "platform", uid: UNKNOWN, createTime: UNKNOWN });
  });

  it("previews an update as the state with the new inputs over it, so the uid stays known downstream", async () => {
    const olds = { parentUid: ORG, name: "platform", uid: GROUP, createTime: "2026-01-01T00:00:00Z" };
    expect(
      await provider.update("irv:iam:Group", GROUP, olds, { parentUid: ORG, name: "platform-2" }, true),
    ).toEqual({ ...olds, name: "platform-2" });
  });

  it("refuses a mistyped setting such as irv:baseURL, naming the known ones", () => {
    const [failure] = provider.checkConfig({ baseURL: "http://x", token: "t", version: "0.1.0" });
    expect(failure?.property).toBe("baseURL");
    expect(failure?.reason).toContain("irv:baseURL is not a setting of the irv provider");
    expect(failure?.reason).toContain("baseUrl");
  });

  it("names an unknown resource token or function clearly", async () => {
    expect(() => provider.kind("irv:iam:Nope")).toThrow('unknown resource type "irv:iam:Nope"');
    await expect(provider.invoke("irv:iam:getNope", {})).rejects.toThrow(
      'unknown function "irv:iam:getNope"',
    );
  });
});

describe("secrets across the plugin's boundary", () => {
  it("takes the engine's secret markers out and puts them back at the same paths", () => {
    const sent = wrapSecrets({ oidc: { issuer: "https://i", clientSecret: "s3cr3t" }, name: "sso" }, [
      "oidc.clientSecret",
    ]);
    expect(isSecretValue((sent.oidc as Record<string, unknown>).clientSecret)).toBe(true);
    const { values, secrets } = unwrapSecrets(sent);
    expect(values).toEqual({ oidc: { issuer: "https://i", clientSecret: "s3cr3t" }, name: "sso" });
    expect(secrets).toEqual(["oidc.clientSecret"]);
    expect(wrapSecrets(values, secrets)).toEqual(sent);
  });

  it("wraps a secret object once, and skips a secret path the outputs do not have", () => {
    const out = wrapSecrets({ oidc: { clientSecret: "s" } }, ["oidc.clientSecret", "oidc", "code"]);
    expect(Object.keys(out)).toEqual(["oidc"]);
    expect(isSecretValue(out.oidc)).toBe(true);
    expect(unwrapSecrets(out).values).toEqual({ oidc: { clientSecret: "s" } });
  });
});
