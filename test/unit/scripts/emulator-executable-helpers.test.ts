// The test helpers released beside the emulator executable: the pytest package carries the
// release's one version (the release refuses to build otherwise), and the Go package is in the Go
// SDK's module exactly as its hand-written source says (the SDK build copies it in).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (p: string) => readFileSync(path.join(root, p), "utf8");

describe("the emulator's test helpers", () => {
  it("pulumi-irv-testing is at package.json's version and registers its pytest plugin", () => {
    const { version } = JSON.parse(read("package.json")) as { version: string };
    const pyproject = read("testing/python/pulumi-irv-testing/pyproject.toml");
    expect(/^version = "([^"]+)"/m.exec(pyproject)?.[1]).toBe(version);
    expect(pyproject).toContain('[project.entry-points.pytest11]\npulumi_irv = "pulumi_irv_testing.plugin"');
    expect(pyproject).toContain('pulumi_irv_testing = ["py.typed"]');
  });

  it("irvtest in the Go SDK's module is its source in testing/go (run `npm run build:sdks`)", () => {
    const files = readdirSync(path.join(root, "testing/go/irvtest"));
    expect(files).toEqual(expect.arrayContaining(["irvtest.go", "webhooks.go"]));
    expect(readdirSync(path.join(root, "generated-sdks/go/irv/irvtest"))).toEqual(files);
    for (const f of files)
      expect(read(`generated-sdks/go/irv/irvtest/${f}`)).toBe(read(`testing/go/irvtest/${f}`));
  });
});
