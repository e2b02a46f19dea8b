#!/usr/bin/env node
// Part of `npm run build`: the dynamic providers' runtime (`pulumi-irv/internal/runtime`) as one
// file, dist/provider/runtime/bundle.mjs, from the compiled sources in dist/.
//
// Why: the engine starts a provider process for every preview, up, refresh and destroy, and the
// serialized stub in each resource's state loads this runtime before its first operation. Loaded
// as ~300 separate modules (the sdk, zod, undici and their own files) it cost about 290 ms of CPU
// per process; as one file about 120 ms (bench/provider-start.ts, "require
// pulumi-irv/internal/runtime"). On two cores shared with the engine that is time every command
// waits for.
//
// Left outside the file: @pulumi/pulumi (the provider process has loaded it already, and the
// closure serializer must be the program's own), and jose (loaded only by a pull token's create,
// so a refresh or a destroy never reads it).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The file the package's `./internal/runtime` (and its 0.1.0 alias `./runtime`) export points at.
 *
 * @example
 * await bundleRuntime(); // then require("pulumi-irv/internal/runtime") reads RUNTIME_BUNDLE
 */
export const RUNTIME_BUNDLE = path.join(root, "dist", "provider", "runtime", "bundle.mjs");

/**
 * Bundles dist/provider/runtime/index.js and what it imports, but @pulumi/pulumi and jose, into
 * {@link RUNTIME_BUNDLE}: one ES module, evaluated in the order of its imports, so the Node version
 * check still runs before any dependency.
 *
 * @example
 * await bundleRuntime();
 */
export async function bundleRuntime(): Promise<void> {
  await build({
    input: path.join(root, "dist", "provider", "runtime", "index.js"),
    platform: "node",
    logLevel: "warn",
    external: [/^@pulumi\/pulumi(\/|$)/, /^jose(\/|$)/],
    output: { file: RUNTIME_BUNDLE, format: "esm", codeSplitting: false },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await bundleRuntime();
