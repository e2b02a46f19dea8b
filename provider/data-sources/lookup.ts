// Narrow imports, not the package root: see data-source.ts (the native plugin loads these modules).
import { RunError } from "@pulumi/pulumi/errors.js";
import { getConfig } from "@pulumi/pulumi/runtime/config.js";
import type { IrvClient } from "../../sdk/index.js";
import { clientFor, explainFailure, resolveSettings } from "../config/index.js";
import { lazyClient } from "./lazy-client.js";

/**
 * Runs one data source in the program process with the stack's settings (`irv:*`, then `IRV_*`).
 * A failure becomes a `RunError`, which Pulumi prints as its message alone: what was looked
 * up, the URL, the cause and the config key to check, without a stack trace into this package.
 *
 * @example
 * const repos = await lookup("irv.registry.getRepos", (client) => client.repos.collectParallel({}));
 */
export async function lookup<T>(what: string, read: (client: IrvClient) => Promise<T>): Promise<T> {
  const settings = resolveSettings((k) => getConfig(k));
  try {
    return await read(lazyClient(() => clientFor(settings)));
  } catch (e) {
    if (RunError.isInstance(e)) throw e;
    const why = explainFailure(e, settings) ?? (e instanceof Error ? e.message : String(e));
    throw new RunError(`${what} failed: ${why}`);
  }
}
