import type * as pulumi from "@pulumi/pulumi";
import { IrvResource } from "../resource/index.js";

/**
 * Arguments of {@link Subscription}.
 *
 * @example
 * const args: irv.events.SubscriptionArgs = { parentUid: orgUid, sink: "https://hooks.example.com/irv" };
 * new irv.events.Subscription("audit-hook", args);
 */
export interface SubscriptionArgs {
  /** The group whose events are sent (and its subtree's). Changing it replaces the subscription. */
  parentUid: pulumi.Input<string>;
  /**
   * Where events are POSTed: an https URL (http only on a loopback host, for a local receiver).
   * The service has no update: a new sink replaces the subscription, the new one first.
   */
  sink: pulumi.Input<string>;
}

/**
 * A webhook subscription to a group's events (`pulumi-nodejs:dynamic/irv:Subscription`).
 *
 * @example
 * new irv.events.Subscription("audit-hook", { parentUid: orgUid, sink: "https://hooks.example.com/irv" });
 */
export class Subscription extends IrvResource {
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly sink: pulumi.Output<string>;

  constructor(name: string, args: SubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super("Subscription", name, { parentUid: args.parentUid, sink: args.sink }, [], opts);
  }
}
