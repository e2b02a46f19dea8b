import { fileURLToPath, pathToFileURL } from "node:url";
import * as pulumi from "@pulumi/pulumi";
import type { StubType } from "../stub/index.js";
import { stubFor } from "../stub/index.js";
import { hideRpcResponseValues } from "./hide-rpc-response-values.js";

/**
 * Base of every pulumi-irv resource class (`pulumi-nodejs:dynamic/irv:<type>`). It owns the two
 * things no kind may get wrong:
 *
 * - `uid` is the resource's id (the provider returns the server's uid as the id), not a provider
 *   output. While an update is previewed the engine has no outputs of a dynamic resource but its
 *   id; an output-based `uid` would be unknown there, and every child fed from it (`parentUid`,
 *   `groupUid`, `identityUid`) would preview as a replacement that `up` never makes. A real
 *   replacement still gives a new, unknown id, so what must follow it is still replaced.
 * - secret outputs stay out of @pulumi/pulumi's debug messages (see `hideRpcResponseValues`).
 * - every output key is declared (as `undefined` in the registered props), so that it appears on
 *   the resource object.
 * - declaring one costs no stack traces that nobody reads, and the engine records the user's line
 *   as its source position (see `declarationStacks`).
 *
 * @example
 * export class Group extends IrvResource {
 *   constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
 *     super("Group", name, { parentUid: args.parentUid, name: args.name ?? name }, ["verified"], opts);
 *   }
 * }
 */
export abstract class IrvResource extends pulumi.dynamic.Resource {
  /** The resource's uid (the same as its `id`): known in the preview of an update. */
  declare readonly uid: pulumi.Output<string>;

  protected constructor(
    type: StubType,
    name: string,
    inputs: Record<string, unknown>,
    outputKeys: readonly string[],
    opts?: pulumi.CustomResourceOptions,
  ) {
    hideRpcResponseValues();
    const props: Record<string, unknown> = { ...inputs };
    for (const key of outputKeys) props[key] = undefined;
    const restore = declarationStacks();
    try {
      super(stubFor(type), name, props, opts, "irv", type);
    } finally {
      restore();
    }
    Object.defineProperty(this, "uid", { value: this.id, enumerable: true });
  }

  /**
   * Reads an existing resource by uid without managing it (the engine calls the provider's read).
   *
   * @example
   * const platform = irv.iam.Group.get("platform", platformUid);
   * export const platformName = platform.name;
   */
  static get<T extends IrvResource>(
    this: new (
      name: string,
      args: never,
      opts?: pulumi.CustomResourceOptions,
    ) => T,
    name: string,
    id: pulumi.Input<pulumi.ID>,
    opts?: pulumi.CustomResourceOptions,
  ): T {
    return new this(name, {} as never, { ...opts, id });
  }
}

// Where this package's resource classes live: their frames stand between @pulumi/pulumi's
// constructor and the user's code. Frames of ES modules are named by URL, of CommonJS by path.
const OWN_DIR = fileURLToPath(new URL("..", import.meta.url));
const OWN_URL = pathToFileURL(OWN_DIR).href;

function isOwnFrame(frame: NodeJS.CallSite): boolean {
  const file = frame.getFileName() ?? "";
  return file.startsWith(OWN_URL) || file.startsWith(OWN_DIR);
}

/**
 * Shapes the stack traces @pulumi/pulumi's resource constructor takes, and returns what restores
 * the process's own settings once the constructor has returned (or thrown).
 *
 * - **No debug stacks.** That constructor wraps a promise around every property of the resource
 *   (inputs and declared outputs) and formats `new Error().stack` for each one at once, through the
 *   source-map-support hook its program host installs, only to print them if
 *   `PULUMI_DEBUG_PROMISE_LEAKS` is set: at 3,000 resources that was 10 of the program's 28 CPU
 *   seconds, all before the first API call (bench/RESULTS.md, section 6). `Error.stackTraceLimit` is
 *   0 meanwhile, so those stacks cost nothing; with `PULUMI_DEBUG_PROMISE_LEAKS` set it is left
 *   alone.
 * - **The user's line as the source position.** @pulumi/pulumi takes the resource's source position
 *   (and the stack trace the engine records) with its own unlimited stack, skipping a fixed number
 *   of frames: those of one concrete class. A pulumi-irv class has two more (`IrvResource` and the
 *   kind's), so the position was a line of this package. Their frames are left out meanwhile.
 *
 * @example
 * const restore = declarationStacks();
 * try {
 *   super(provider, name, props, opts, "irv", type);
 * } finally {
 *   restore();
 * }
 */
export function declarationStacks(): () => void {
  const limit = Error.stackTraceLimit;
  const prepare = Error.prepareStackTrace;
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
  Error.prepareStackTrace = (error, frames) => {
    const theirs = frames.filter((f) => !isOwnFrame(f));
    // Without a hook installed, V8's own format: the error, then one "at" line per frame.
    return prepare ? prepare(error, theirs) : [String(error), ...theirs.map((f) => `    at ${f}`)].join("\n");
  };
  return () => {
    Error.stackTraceLimit = limit;
    Error.prepareStackTrace = prepare;
  };
}
