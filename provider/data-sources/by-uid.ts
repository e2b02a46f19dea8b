import type { IrvClient } from "../../sdk/index.js";
import type { ByUid } from "../types/index.js";
import type { DataSource } from "./data-source.js";
import { dataSource } from "./data-source.js";

/**
 * A data source that reads one resource by its uid (a uid that names nothing fails, naming it).
 *
 * @example
 * const overlay = byUid("irv.registry.getOverlay", (c) => c.overlays);
 * await overlay.get({ uid });
 */
export function byUid<T>(
  name: string,
  collection: (client: IrvClient) => { get(uid: string): Promise<T> },
): DataSource<ByUid, T> {
  return dataSource(name, async (client, { uid }: ByUid) => {
    if (!uid) throw new Error("uid is required");
    return collection(client).get(uid);
  });
}
