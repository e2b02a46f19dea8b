import type { ResourceTable } from "../store/index.js";

const key = (groupUid: string) => `customAssembly:${groupUid}`;

/**
 * Whether custom assembly is enabled for a group: the nearest group up its tree (itself first) that
 * was set decides; the organization is enabled unless set otherwise. The service enables it per
 * customer (published repos.proto: `custom_overlay` "can only be set on repositories with custom
 * assembly enabled"); the emulator through its fixtures and `POST /_emulator/custom-assembly`.
 *
 * @example
 * customAssemblyEnabled(table, groupUid); // true in a fresh emulator
 */
export function customAssemblyEnabled(table: ResourceTable, groupUid: string): boolean {
  const segments = groupUid.split("/");
  for (let n = segments.length; n > 0; n--) {
    const set = table.db.getMeta(key(segments.slice(0, n).join("/")));
    if (set !== undefined) return set === "on";
  }
  return true;
}

/**
 * Enables or disables custom assembly for a group and the groups below it that are not set
 * themselves.
 *
 * @example
 * setCustomAssembly(table, groupUid, false);
 */
export function setCustomAssembly(table: ResourceTable, groupUid: string, enabled: boolean): void {
  table.db.setMeta(key(groupUid), enabled ? "on" : "off");
}
