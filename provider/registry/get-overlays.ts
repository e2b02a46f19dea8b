import type * as pulumi from "@pulumi/pulumi";
import { byUid, dataSource, toQuery } from "../data-sources/index.js";
import type { ByUid, InputsOf, ListFilter, ListFilterInput, Overlay } from "../types/index.js";

/**
 * Result of {@link getOverlays}.
 *
 * @example
 * const { overlays }: irv.registry.GetOverlaysResult = await irv.registry.getOverlays({ childrenOf: orgUid });
 */
export interface GetOverlaysResult {
  overlays: Overlay[];
}

const list = dataSource("irv.registry.getOverlays", async (client, filter: ListFilter) => ({
  overlays: await client.overlays.collectParallel(toQuery(filter)),
}));
const one = byUid("irv.registry.getOverlay", (client) => client.overlays);

/**
 * Every overlay matching the filter (all pages).
 *
 * @example
 * const { overlays } = await irv.registry.getOverlays({ childrenOf: orgUid, name: "debug-tools" });
 */
export function getOverlays(filter: ListFilter = {}): Promise<GetOverlaysResult> {
  return list.get(filter);
}

/**
 * {@link getOverlays} taking Inputs and returning an Output.
 *
 * @example
 * export const overlayNames = irv.registry.getOverlaysOutput({ childrenOf: orgUid }).overlays.apply((l) => l.map((o) => o.name));
 */
export function getOverlaysOutput(filter: ListFilterInput = {}): pulumi.Output<GetOverlaysResult> {
  return list.output(filter);
}

/**
 * One overlay by uid.
 *
 * @example
 * const tools = await irv.registry.getOverlay({ uid: toolsUid });
 */
export function getOverlay(args: ByUid): Promise<Overlay> {
  return one.get(args);
}

/**
 * {@link getOverlay} taking Inputs and returning an Output.
 *
 * @example
 * export const packages = irv.registry.getOverlayOutput({ uid: tools.uid }).config.apply((c) => c.contents?.packages);
 */
export function getOverlayOutput(args: InputsOf<ByUid>): pulumi.Output<Overlay> {
  return one.output(args);
}
