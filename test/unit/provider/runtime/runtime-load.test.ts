// What a dynamic-provider process pays to load `pulumi-irv/internal/runtime`, which the engine's
// provider process loads before the first read or delete of every refresh, destroy and up. Runs the
// built package (dist/).
//
// regressions:
// - every provider process loaded jose (~50 ms of CPU) for the key pair only a pull token's create
//   makes, and yaml (~35 ms, issue 40) for an approvals file only the access review reads;
// - as ~490 files of dist/, zod and undici, the load cost ~490 ms of CPU, most of it resolving,
//   reading and compiling files (issue 47: twice what the scale benchmark's HTTP floor pays); it is
//   now one bundled file (scripts/bundle-runtime.ts), ~210 ms;
// - every provider process compiled that file again, ~70 ms of the load that V8's compile cache,
//   kept on disk by the first process, saves the next ones (issue 47).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");

// Prints every file the runtime's import loads (node_modules packages by name, this package's files
// by path under dist/), one per line.
const LIST_FILES = `
const { registerHooks } = require("node:module");
const seen = new Set();
registerHooks({
  load(url, context, next) {
    const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
    if (m) seen.add(m[1]);
    else if (url.includes("/dist/")) seen.add(url.slice(url.lastIndexOf("/dist/") + 1));
    return next(url, context);
  },
});
require("pulumi-irv/internal/runtime");
console.log([...seen].join("\\n"));
`;

// The serialized provider of each type as the runtime supplies it (the preload's import Read) and as
// a program writes it (the package's resource classes, through @pulumi/pulumi), as JSON.
const SERIALIZED_BOTH_WAYS = `
(async () => {
  const pulumi = require("@pulumi/pulumi");
  const runtime = require("pulumi-irv/internal/runtime");
  const { RESOURCE_TYPES, stubFor } = require(${JSON.stringify(path.join(root, "dist", "provider", "stub", "index.js"))});
  const out = {};
  for (const t of RESOURCE_TYPES) {
    const provider = stubFor(t);
    const program = (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
    out[t] = { runtime: await runtime.serializedProvider(t), program };
  }
  console.log(JSON.stringify(out));
})();
`;

describe("the dynamic providers' runtime", () => {
  it("loads as one file, with no jose until a pull token is created and no yaml", () => {
    const r = spawnSync(process.execPath, ["-e", LIST_FILES], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const loaded = r.stdout.trim().split("\n");
    // The loader, the bundle and the provider stubs it imports (kept out of it: see
    // scripts/bundle-runtime.ts); zod and undici are inside the bundle.
    expect(loaded).toContain("dist/provider/runtime/bundle.mjs");
    expect(loaded.filter((f) => f.startsWith("dist/provider/runtime/"))).toEqual([
      "dist/provider/runtime/load.cjs",
      "dist/provider/runtime/bundle.mjs",
    ]);
    expect(loaded).not.toContain("zod");
    expect(loaded).not.toContain("undici");
    // What only a pull token's create needs is not loaded, nor what only the access review's
    // approvals file needs.
    expect(loaded).not.toContain("jose");
    expect(loaded).not.toContain("yaml");
  });

  it("keeps its compiled code in V8's compile cache for the next provider process, unless turned off", () => {
    // Where a user's machine keeps it: os.tmpdir()/node-compile-cache (TMPDIR, here a directory of
    // the test's own). NODE_COMPILE_CACHE is left unset: it would turn the cache on by itself.
    const cacheFiles = (env: Record<string, string>) => {
      const dir = mkdtempSync(path.join(tmpdir(), "irv-compile-cache-"));
      try {
        const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...inherited } = process.env;
        const r = spawnSync(process.execPath, ["-e", 'require("pulumi-irv/internal/runtime")'], {
          cwd: root,
          encoding: "utf8",
          env: { ...inherited, TMPDIR: dir, ...env },
        });
        expect(r.status, r.stderr).toBe(0);
        return readdirSync(dir, { recursive: true }).filter((f) => String(f).startsWith("node-compile-cache"))
          .length;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    expect(cacheFiles({})).toBeGreaterThan(0);
    expect(cacheFiles({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(0);
  });

  // regression: a bundler rewrites the stubs' source (indentation, names); had the bundle carried
  // its own copy, the `__provider` it supplies to an import's Read would differ from the one every
  // program writes, and the next up would show a change on each imported resource.
  it("supplies the serialized provider a program writes, for every type", () => {
    const r = spawnSync(process.execPath, ["-e", SERIALIZED_BOTH_WAYS], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const both = JSON.parse(r.stdout) as Record<string, { runtime: string; program: string }>;
    expect(Object.keys(both).length).toBeGreaterThan(10);
    for (const [type, { runtime, program }] of Object.entries(both)) {
      expect(runtime, type).toContain(`"${type}"`);
      expect(runtime, type).toBe(program);
    }
    // @pulumi/pulumi's serializer loads TypeScript: seconds on a busy machine.
  }, 60_000);
});
