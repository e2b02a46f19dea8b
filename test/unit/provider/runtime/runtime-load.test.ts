// regression (every dynamic-provider process loaded jose, ~50 ms of CPU before its first read or
// delete, for the key pair only a pull token's create makes): `pulumi-irv/internal/runtime`, which
// the engine's provider process loads for every refresh and destroy, loads no jose until a pull
// token is created, as the sdk's token sources already did. Runs the built package (dist/).
//
// Since issue 40 the runtime is one bundled file (scripts/build-runtime.ts): loading it reads no
// other package's files at all, which is what made it cheap to start (~300 modules before).
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
  it("is one file: it loads no package's modules, and no jose until a pull token is created", () => {
    const r = spawnSync(process.execPath, ["-e", LIST_PACKAGES], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    // zod and undici are inside the bundle; jose, which only a pull token's create needs, stays out.
    expect(r.stdout.trim()).toBe("");
  });

  it("still loads jose, from the installed package, when a pull token's create asks for it", () => {
    // A client that refuses the identity's create: by then the key pair is made, so jose is loaded.
    const CREATE = `
      const { pullTokenKind } = require("pulumi-irv/internal/runtime");
      const client = { identities: { create: async () => { throw new Error("refused"); } } };
      pullTokenKind
        .create(client, { groupUid: "a".repeat(40), name: "ci", roleUid: "r" }, { registryHost: "cgr.dev", now: Date.now })
        .catch((e) => console.log(e.message + "\\n" + [...seen].join("\\n")));`;
    const r = spawnSync(
      process.execPath,
      [
        "-e",
        LIST_PACKAGES.replace('require("pulumi-irv/internal/runtime");', "").replace(
          /console\.log.*\n/,
          CREATE,
        ),
      ],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout.trim().split("\n")).toEqual(["refused", "jose"]);
  });
});
