#!/usr/bin/env node
// The last step of `npm run build`: `pulumi-irv/internal/runtime` (and its alias `pulumi-irv/runtime`)
// as one ES module, dist/provider/runtime/bundle.mjs, made from the compiled runtime in dist/.
//
// Why: every `pulumi refresh`, `destroy` and `up` starts a dynamic-provider process that loads the
// runtime before its first read or delete. As ~190 modules of dist/ plus zod's and undici's (~300
// files), that load cost about 490 ms of CPU, most of it resolving, reading and compiling files,
// where the HTTP floor of the scale benchmark (a provider that only loads undici and sends the
// same request) pays about 200 ms; as one file it costs about 210 ms (issue 47, measured with
// `require()` from the program's directory on a busy two-core machine).
//
// The package's exports name a small CommonJS loader beside the bundle, RUNTIME_LOADER, which turns
// on V8's compile cache (Node >= 22.1, `module.enableCompileCache`) before it requires the bundle:
// the second and later provider processes on a machine read the bundle's compiled code from the
// cache (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE) instead of compiling it again, about
// 70 ms of the ~225 ms load. TypeScript's own compiler does the same. NODE_DISABLE_COMPILE_CACHE=1
// turns it off; an older Node, or a cache directory that cannot be written, loads as before.
//
// What stays outside the bundle, loaded from node_modules as before:
//   @pulumi/pulumi  a peer dependency: the program's own copy (the serialized-provider lookup);
//   jose, yaml      loaded only by a pull token's create or an approvals file, so no refresh or
//                   destroy pays for them (test/unit/provider/runtime/runtime-load.test.ts).
//   dist/provider/stub  the provider stubs: their source text is what a program serializes into
//                   every resource's state, and a bundler rewrites it (indentation, names), so the
//                   runtime's `serializedProvider` must read tsc's output to write the same text.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The runtime's entry as tsc compiles it. */
export const RUNTIME_ENTRY = path.join(root, "dist", "provider", "runtime", "index.js");
/**
 * The bundle the package's exports name. Beside the entry, so that the stubs' import
 * (`../stub/index.js`) means the same file from both.
 */
export const RUNTIME_BUNDLE = path.join(root, "dist", "provider", "runtime", "bundle.mjs");
const LOADER_NAME = "load.cjs";
/** What the package's exports name: turns on the compile cache, then requires {@link RUNTIME_BUNDLE}. */
export const RUNTIME_LOADER = path.join(path.dirname(RUNTIME_BUNDLE), LOADER_NAME);
const STUB = path.join(root, "dist", "provider", "stub", "index.js");
const PACKAGES_OUTSIDE = new Set(["jose", "yaml"]);

/** Whether an import stays an import of the installed file (see the header). */
function outside(id: string, importer: string | undefined): boolean {
  if (id.startsWith("@pulumi/") || PACKAGES_OUTSIDE.has(id)) return true;
  return importer !== undefined && id.startsWith(".") && path.resolve(path.dirname(importer), id) === STUB;
}

// The loader's whole text. `enableCompileCache` is process-wide, so it also serves what loads later
// (jose, at a pull token's create). A directory it cannot write only returns a failed status (one
// inside /proc makes Node spin: upstream, and tsc meets it the same way). `?.`: an old Node has no
// such function, and must still reach the bundle's one-line version check.
const loaderOf = (bundle: string) => `"use strict";
// Written by scripts/bundle-runtime.ts: V8's compile cache, then the runtime bundle.
require("node:module").enableCompileCache?.();
module.exports = require("./${bundle}");
`;

// CommonJS dependencies inside an ES module (undici) still find `__filename` and `__dirname`.
const BANNER = "const __filename = import.meta.filename; const __dirname = import.meta.dirname;";

/**
 * Bundles the compiled runtime into {@link RUNTIME_BUNDLE}, and writes its loader
 * {@link RUNTIME_LOADER} beside it.
 *
 * @example
 * await bundleRuntime(); // after `tsc -p tsconfig.build.json`
 */
export async function bundleRuntime(input = RUNTIME_ENTRY, file = RUNTIME_BUNDLE): Promise<void> {
  writeFileSync(path.join(path.dirname(file), LOADER_NAME), loaderOf(path.basename(file)));
  await build({
    input,
    platform: "node",
    logLevel: "warn",
    external: outside,
    output: { file, format: "esm", codeSplitting: false, banner: BANNER },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await bundleRuntime();
