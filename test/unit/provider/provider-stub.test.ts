import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { TYPE } from "../../../policy/type-tokens.js";
import { serializedProvider } from "../../../provider/runtime/index.js";
import { RESOURCE_TYPES, stubFor } from "../../../provider/stub/index.js";

const { serializeFunction } = pulumi.runtime;

describe("serialized provider stub", () => {
  for (const type of RESOURCE_TYPES) {
    it(`keeps __provider of ${type} under 1 KB, with no path and no implementation`, async () => {
      const provider = stubFor(type);
      const { text } = await serializeFunction(() => provider, { allowSecrets: true });
      expect(text.length).toBeLessThan(1024);
      expect(text).toContain('require("pulumi-irv/internal/runtime")');
      expect(text).toContain(`"${type}"`);
      expect(text).not.toMatch(/\/work\/|\/home\/|\/root\/|node_modules/);
      expect(text).not.toContain("IRV_TOKEN");
    });
  }

  it("serializes the same text every time, so upgrading the package shows no diff", async () => {
    const provider = stubFor("Group");
    const a = await serializeFunction(() => provider, { allowSecrets: true });
    const b = await serializeFunction(() => provider, { allowSecrets: true });
    expect(a.text).toBe(b.text);
  });

  it("serves every type the policy pack matches, and no other", async () => {
    expect(Object.values(TYPE).sort()).toEqual(
      RESOURCE_TYPES.map((t) => `pulumi-nodejs:dynamic/irv:${t}`).sort(),
    );
    for (const type of RESOURCE_TYPES) expect(await serializedProvider(type)).toContain(`"${type}"`);
  });
});
