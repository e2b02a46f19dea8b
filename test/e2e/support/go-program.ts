// What a stack needs to run a Go program on the packaged plugin: our test-only Go language host on
// the engine's PATH and `go` set to build from the module cache alone (filled once per machine).
import path from "node:path";
import { ensureGoLanguageHost } from "../../../scripts/go-host.ts";
import { ensureGoModuleCache, OFFLINE_GO_ENV } from "../../../scripts/go-sdk.ts";
import type { TestStack } from "../harness/index.js";
import type { NativePlugin } from "./native-plugin.js";
import { prepareNativePlugin } from "./native-plugin.js";

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

/**
 * A Go program made ready for a stack: the program itself (Go builds it in place from the module
 * cache, writing nothing there), its env, and the plugin installed before the first operation.
 *
 * @example
 * const q: PreparedGoProgram = await prepareGoProgram(path.join(root, "examples/quickstart-go"), pulumiBinDir());
 */
export interface PreparedGoProgram {
  program: string;
  env: Record<string, string>;
  beforeUp(stack: TestStack): Promise<void>;
  dispose(): void;
}

/**
 * The packaged plugin, the Go host and module cache, and the hooks a stack of the Go program
 * `dir` needs.
 *
 * @example
 * const q = await prepareGoProgram(path.join(root, "examples/quickstart-go"), pulumiBinDir());
 * const stack = await createStack({ program: q.program, config, env: q.env });
 * await q.beforeUp(stack);
 */
export async function prepareGoProgram(dir: string, cliBinDir: string): Promise<PreparedGoProgram> {
  const plugin = await prepareNativePlugin(cliBinDir);
  return {
    program: dir,
    env: await goProgramEnv(plugin, cliBinDir),
    beforeUp: (stack) => plugin.install(stack),
    dispose: () => {},
  };
}
