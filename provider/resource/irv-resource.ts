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
    super(stubFor(type), name, props, opts, "irv", type);
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
