// regression (every dynamic-provider process loaded jose, ~50 ms of CPU before its first read or
// delete, for the key pair only a pull token's create makes): `pulumi-irv/internal/runtime`, which
// the engine's provider process loads for every refresh and destroy, loads no jose until a pull
// token is created, as the sdk's token sources already did. Runs the built package (dist/).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");

// Prints every package the runtime's import loads, one per line.
const LIST_PACKAGES = `
const { registerHooks } = require("node:module");
const seen = new Set();
registerHooks({
  load(url, context, next) {
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
    if (m) seen.add(m[1]);
    return next(url, context);
  },
});
require("pulumi-irv/internal/runtime");
console.log([...seen].join("\\n"));
`;

describe("the dynamic providers' runtime", () => {
  it("loads no jose until a pull token is created, and no yaml", () => {
    const r = spawnSync(process.execPath, ["-e", LIST_PACKAGES], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const loaded = r.stdout.trim().split("\n");
    // What it needs for every read and delete is there…
    expect(loaded).toEqual(expect.arrayContaining(["zod", "undici"]));
    // …and what only a pull token's create needs is not, nor what only the access review's
    // approvals file needs (regression, issue 40: yaml was ~35 ms of every provider process's start).
    expect(loaded).not.toContain("jose");
    expect(loaded).not.toContain("yaml");
  });
});
