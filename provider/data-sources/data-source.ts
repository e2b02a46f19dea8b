import type * as pulumi from "@pulumi/pulumi";
// The one function of @pulumi/pulumi this needs, from its own module: the native plugin loads the
// lookups for their reads, and the package root would cost it a second of start-up for nothing.
import { output } from "@pulumi/pulumi/output.js";
import type { IrvClient } from "../../sdk/index.js";
import type { InputsOf } from "../types/index.js";
import { registerDataSource } from "./data-source-table.js";
import { lookup } from "./lookup.js";

/**
 * A data source in both of its forms: a promise of plain arguments, and an Output of Inputs.
 *
 * @example
 * const { get: getTags, output: getTagsOutput } = dataSource("irv.registry.getTags", readTags);
 */
export interface DataSource<Args, Result> {
  get(args: Args): Promise<Result>;
  output(args: InputsOf<Args>): pulumi.Output<Result>;
}

/**
 * Makes a data source from one read, run through {@link lookup}: in the program process with the
 * stack's settings, a failure a `pulumi.RunError` naming the data source and the cause. The read is
 * also recorded in the data source table, which the native plugin serves as invokes.
 *
 * @example
 * const tags = dataSource("irv.registry.getTags", async (client, a: { repoUid: string }) => ({
 *   tags: await client.tags.collectParallel({ childrenOf: a.repoUid }),
 * }));
 * const { tags: found } = await tags.get({ repoUid });
 */
export function dataSource<Args, Result>(
  name: string,
  read: (client: IrvClient, args: Args) => Promise<Result>,
): DataSource<Args, Result> {
  registerDataSource(name, read);
  const get = (args: Args): Promise<Result> => lookup(name, (client) => read(client, args));
  return {
    get,
    // `pulumi.output` unwraps nested Inputs; the shape is the plain `Args` once resolved.
    output: (args) => output(args).apply((a) => get(a as Args)),
  };
}

/**
 * The one item a lookup must find, or a clear error for none and for several (the data source
 * adds its own name to the message).
 *
 * @example
 * const group = exactlyOne('groups named "platform"', groups, "pass parentUid to choose one");
 */
export function exactlyOne<T extends { uid: string }>(
  criteria: string,
  items: readonly T[],
  narrow: string,
): T {
  const [first, ...rest] = items;
  if (!first) throw new Error(`no ${criteria}`);
  if (rest.length > 0)
    throw new Error(`${items.length} ${criteria} (${items.map((i) => i.uid).join(", ")}); ${narrow}`);
  return first;
}
