// On an unsupported Node (the system's Node 20 here, /usr/bin/node), the `pulumi-irv` bin, the
// package's entry and the dynamic providers' runtime say in one line which Node they need, instead
// of a stack trace from inside undici. Runs the built package (dist/, `npm run build`).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIN_NODE_VERSION, nodeVersionProblem } from "../../../provider/node-version.js";

const root = path.resolve(import.meta.dirname, "../../..");
const OLD_NODE = "/usr/bin/node";
const oldVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim().slice(1)
  : "";

describe("an unsupported Node", () => {
  it("is named with the version needed, and a supported one passes", () => {
    expect(nodeVersionProblem("20.20.2", "/usr/bin/node")).toBe(
      `pulumi-irv: Node.js >= ${MIN_NODE_VERSION} is required; this is Node.js 20.20.2 (/usr/bin/node). Install a newer Node.js (https://nodejs.org) or put it first on PATH.`,
    );
    expect(nodeVersionProblem("22.18.0")).toMatch(/^pulumi-irv: Node\.js >= 22\.19 is required/);
    expect(nodeVersionProblem("22.19.0")).toBeUndefined();
    expect(nodeVersionProblem("24.21.0")).toBeUndefined();
  });

  it.each([
    ["the pulumi-irv bin", [path.join(root, "dist", "provider", "cli", "main.js"), "--help"]],
    ["the package's entry", ["--input-type=module", "-e", 'await import("pulumi-irv")']],
    ["the dynamic providers' runtime", ["-e", 'require("pulumi-irv/internal/runtime")']],
  ])("%s says so in one line on the system's Node (%s)", (_what, args) => {
    // The system's Node is the old one this test is about (docs/toolchain.md).
    expect(oldVersion).toMatch(/^(1\d|2[01])\./);
    const r = spawnSync(OLD_NODE, args, { cwd: root, encoding: "utf8" });
    expect(r.stderr.trim()).toBe(
      `pulumi-irv: Node.js >= ${MIN_NODE_VERSION} is required; this is Node.js ${oldVersion} (${OLD_NODE}). Install a newer Node.js (https://nodejs.org) or put it first on PATH.`,
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(1);
  });
});
