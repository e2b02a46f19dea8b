import type { IrvClient } from "../../sdk/index.js";
import type * as Config from "../config/index.js";
import { CliError } from "./cli-error.js";

/**
 * A read through the `pulumi` command, whose failure becomes the CLI's one-line error (exit 1).
 *
 * @example
 * const exported = await cliStep(exportStack(name, { cwd }));
 */
export async function cliStep<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw err instanceof CliError ? err : new CliError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The API client of a stack's settings (its `irv:*` config, then `IRV_*`), or a usage error saying
 * what the command reads from the API and what to set.
 *
 * @example
 * const client = stackClient(await import("../config/index.js"), (k) => values[k], "the review reads the roles' capabilities from the API");
 */
export function stackClient(
  config: Pick<typeof Config, "resolveSettings" | "clientFor">,
  values: (k: string) => string | undefined,
  why: string,
): IrvClient {
  const settings = config.resolveSettings(values);
  if (!settings.baseUrl)
    throw new CliError(
      `${why}: set irv:baseUrl in the stack's config or IRV_BASE_URL (and a token: irv:token / IRV_TOKEN, or irv:identity with a workload token)`,
      2,
    );
  // The client is the process-wide one of these settings (clientFor): the process exit closes it.
  return config.clientFor(settings);
}
