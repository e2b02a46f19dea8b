import type * as pulumi from "@pulumi/pulumi";
import { byUid, dataSource } from "../data-sources/index.js";
import type { ByUid, InputsOf, OverlayBinding } from "../types/index.js";

/**
 * Arguments of {@link getOverlayBindings}.
 *
 * @example
 * const args: irv.registry.GetOverlayBindingsArgs = { repoUid };
 */
export interface GetOverlayBindingsArgs {
  /** The repo. */
  repoUid: string;
}

/**
 * Result of {@link getOverlayBindings}.
 *
 * @example
 * const { overlayBindings }: irv.registry.GetOverlayBindingsResult = await irv.registry.getOverlayBindings({ repoUid });
 */
export interface GetOverlayBindingsResult {
  overlayBindings: OverlayBinding[];
}

const list = dataSource(
  "irv.registry.getOverlayBindings",
  async (client, { repoUid }: GetOverlayBindingsArgs) => {
    if (!repoUid) throw new Error("repoUid is required");
    return { overlayBindings: await client.overlayBindings.collectParallel({ childrenOf: repoUid }) };
  },
);
const one = byUid("irv.registry.getOverlayBinding", (client) => client.overlayBindings);

/**
 * Every overlay binding of a repo (all pages).
 *
 * @example
 * const { overlayBindings } = await irv.registry.getOverlayBindings({ repoUid });
 */
export function getOverlayBindings(args: GetOverlayBindingsArgs): Promise<GetOverlayBindingsResult> {
  return list.get(args);
}

/**
 * {@link getOverlayBindings} taking Inputs and returning an Output.
 *
 * @example
 * export const bound = irv.registry.getOverlayBindingsOutput({ repoUid: app.uid }).overlayBindings.apply((l) => l.length);
 */
export function getOverlayBindingsOutput(
  args: InputsOf<GetOverlayBindingsArgs>,
): pulumi.Output<GetOverlayBindingsResult> {
  return list.output(args);
}

/**
 * One overlay binding by uid.
 *
 * @example
 * const binding = await irv.registry.getOverlayBinding({ uid: bindingUid });
 */
export function getOverlayBinding(args: ByUid): Promise<OverlayBinding> {
  return one.get(args);
}

/**
 * {@link getOverlayBinding} taking Inputs and returning an Output.
 *
 * @example
 * export const boundTags = irv.registry.getOverlayBindingOutput({ uid: binding.uid }).tags;
 */
export function getOverlayBindingOutput(args: InputsOf<ByUid>): pulumi.Output<OverlayBinding> {
  return one.output(args);
}
