import type { IrvClient } from "../../sdk/index.js";

/**
 * One lookup's read, as the native plugin's Invoke runs it: the client of the provider's settings
 * and the plain arguments the program passed.
 *
 * @example
 * const read: DataSourceRead = async (client, args) => client.roles.collectParallel({});
 */
export type DataSourceRead = (client: IrvClient, args: never) => Promise<unknown>;

const table = new Map<string, DataSourceRead>();

/**
 * Records a data source under its name (`irv.iam.getRoles`); `dataSource` calls it, so every lookup
 * the package defines is in the table once its module is loaded.
 *
 * @example
 * registerDataSource("irv.registry.getTags", readTags);
 */
export function registerDataSource(name: string, read: DataSourceRead): void {
  table.set(name, read);
}

/**
 * Every data source defined so far, by name (`irv.<module>.<function>`): the plugin serves each as
 * the invoke `irv:<module>:<function>`.
 *
 * @example
 * const read = dataSourceTable().get("irv.iam.getRoles");
 */
export function dataSourceTable(): ReadonlyMap<string, DataSourceRead> {
  return table;
}
