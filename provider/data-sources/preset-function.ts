import type * as pulumi from "@pulumi/pulumi";
import { RunError } from "@pulumi/pulumi/errors.js";
import { output } from "@pulumi/pulumi/output.js";
import type { InputsOf } from "../types/index.js";
import type { DataSource } from "./data-source.js";
import { registerDataSource } from "./data-source-table.js";

/**
 * A function computed from its arguments alone (no API call, no credentials), served like the data
 * sources: a promise, an Output of Inputs, and the plugin's invoke `irv:<module>:<name>` for every
 * other language. A refusal is a `pulumi.RunError` naming the function and the argument.
 *
 * @example
 * const presets = presetFunction("irv.iam.githubActionsClaims", githubActionsClaimMatch);
 * const match = await presets.get({ repository: "acme/app", ref: "refs/heads/main" });
 */
export function presetFunction<Args, Result>(
  name: string,
  compute: (args: Args) => Result,
): DataSource<Args, Result> {
  registerDataSource(name, async (_client, args: Args) => compute(args));
  const get = async (args: Args): Promise<Result> => {
    try {
      return compute(args);
    } catch (e) {
      throw new RunError(`${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return {
    get,
    output: (args: InputsOf<Args>): pulumi.Output<Result> => output(args).apply((a) => get(a as Args)),
  };
}
