// examples/pull-request-checks: the workflow points at the pack and its config, and the config only
// names policies and settings the pack has (a typo there would silently do nothing).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import * as policies from "../../../policy/policies/index.js";

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../examples/pull-request-checks",
);
const byName = new Map(
  Object.values(policies)
    .filter(
      (p): p is ResourceValidationPolicy => typeof p === "object" && p !== null && "validateResource" in p,
    )
    .map((p) => [p.name, p]),
);
const LEVELS = ["advisory", "mandatory", "remediate", "disabled"];

describe("examples/pull-request-checks", () => {
  it("previews with the policy pack and its config on pull requests and applies on main", () => {
    const workflow = readFileSync(path.join(dir, ".github", "workflows", "irv.yml"), "utf8");
    expect(workflow).toMatch(
      /command: preview[\s\S]*policyPacks: node_modules\/pulumi-irv\/policy[\s\S]*policyPackConfigs: policy-config.json/,
    );
    expect(workflow).toMatch(/if: github.event_name == 'push'\s+with:\s+command: up/);
    expect(workflow).toContain("id-token: write");
  });

  it("configures only policies and settings that the pack has", () => {
    const config = JSON.parse(readFileSync(path.join(dir, "policy-config.json"), "utf8")) as Record<
      string,
      unknown
    >;
    for (const [name, value] of Object.entries(config)) {
      const policy = byName.get(name);
      expect(policy, `policy ${name}`).toBeDefined();
      if (typeof value === "string") {
        expect(LEVELS).toContain(value);
        continue;
      }
      const { enforcementLevel, ...settings } = value as Record<string, unknown>;
      if (enforcementLevel !== undefined) expect(LEVELS).toContain(enforcementLevel);
      for (const key of Object.keys(settings))
        expect(Object.keys(policy?.configSchema?.properties ?? {}), `${name}.${key}`).toContain(key);
    }
  });
});
