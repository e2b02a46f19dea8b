import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { stubFor } from "../../../provider/stub/index.js";

const { serializeFunction } = pulumi.runtime;

describe("serialized provider stub", () => {
  for (const type of ["Group", "Identity", "RoleBinding"] as const) {
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
});
