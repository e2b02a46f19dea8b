// The native plugin as the e2e tests and benchmarks run it: built and packed from dist/, the YAML
// language host found or built, and a stack's environment and PULUMI_HOME made ready for both.
import path from "node:path";
import { inject } from "vitest";
import type { BuiltPlugin } from "../../../scripts/build-plugin.ts";
import { buildPlugin } from "../../../scripts/build-plugin.ts";
import { ensureYamlLanguageHost } from "../../../scripts/pulumi-cli.ts";
import type { TestStack } from "../harness/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The plugin bundled and packed once per run by test/e2e/global-setup.ts. */
    nativePlugin: BuiltPlugin;
  }
}

/** The plugin of this run's global setup; built here when there is none (a bench, a script). */
async function builtPlugin(): Promise<BuiltPlugin> {
  let provided: BuiltPlugin | undefined;
  try {
    provided = inject("nativePlugin");
  } catch {
    // Not inside a vitest worker of the e2e project.
  }
  return provided ?? buildPlugin();
}

/**
 * What a stack needs to run a YAML program on the packaged plugin.
 *
 * @example
 * const { env, install }: NativePlugin = await prepareNativePlugin(binDir);
 */
export interface NativePlugin {
  version: string;
  tarball: string;
  /** The directory holding the executable, the bundle and schema.json. */
  dir: string;
  /** A stack's `env`: the YAML host, the CLI and the Node running this process first on PATH. */
  env: Record<string, string>;
  /** `pulumi plugin install resource irv <v> --file <tarball>` into the stack's own PULUMI_HOME. */
  install(stack: TestStack): Promise<void>;
}

/**
 * The plugin this run built (or builds it: `npm run build` must have made dist/) and the YAML host.
 *
 * @example
 * const plugin = await prepareNativePlugin(pulumiBinDir());
 * const stack = await createStack({ program, env: plugin.env });
 * await plugin.install(stack);
 */
export async function prepareNativePlugin(cliBinDir: string): Promise<NativePlugin> {
  const [plugin, yamlBin] = await Promise.all([builtPlugin(), ensureYamlLanguageHost({ cliBinDir })]);
  return {
    version: plugin.version,
    tarball: plugin.tarball,
    dir: plugin.dir,
    // The engine finds the YAML host on PATH; the plugin runs on the `node` found there.
    env: {
      PATH: [yamlBin, cliBinDir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    },
    install: async (stack) => {
      await stack.run(["plugin", "install", "resource", "irv", plugin.version, "--file", plugin.tarball]);
    },
  };
}
