// What a stack needs to run a Go program on the packaged plugin: our test-only Go language host on
// the engine's PATH and `go` set to build from the module cache alone (filled once per machine).
import path from "node:path";
import { ensureGoLanguageHost } from "../../../scripts/go-host.ts";
import { ensureGoModuleCache, OFFLINE_GO_ENV } from "../../../scripts/go-sdk.ts";
import type { NativePlugin } from "./native-plugin.js";

/**
 * A stack `env` for a Go program: the plugin's (the CLI and `node` on PATH) with the Go language host
 * first and {@link OFFLINE_GO_ENV}. Builds the host and fills the Go module cache when missing.
 *
 * @example
 * const plugin = await prepareNativePlugin(pulumiBinDir());
 * const stack = await createStack({ program: "examples/quickstart-go", env: await goProgramEnv(plugin, pulumiBinDir()) });
 */
export async function goProgramEnv(plugin: NativePlugin, cliBinDir: string): Promise<Record<string, string>> {
  const log = (line: string) => console.error(line);
  const [goBin] = await Promise.all([ensureGoLanguageHost({ cliBinDir, log }), ensureGoModuleCache({ log })]);
  return { ...plugin.env, ...OFFLINE_GO_ENV, PATH: [goBin, plugin.env.PATH].join(path.delimiter) };
}
