import type {
  ExternalGroupRoleMapping,
  ExternalGroupRoleMappingCreate,
} from "../schemas/external-group-role-mapping.js";
import { BatchDeleteMappingsResponse } from "../schemas/external-group-role-mapping.js";
import type { CallOptions } from "./resource-client.js";
import { ResourceClient } from "./resource-client.js";
import { uidPath } from "./uid-path.js";

/**
 * The external group role mappings of the API, with the published `:batchDelete`: several
 * mappings of one identity provider in one call.
 *
 * @example
 * const m = await client.externalGroupRoleMappings.create(idp.uid, { externalGroupId: "admins", roleUid, scope: orgUid });
 * await client.externalGroupRoleMappings.batchDelete(idp.uid, [m.uid]);
 */
export class MappingClient extends ResourceClient<ExternalGroupRoleMapping, ExternalGroupRoleMappingCreate> {
  /**
   * Deletes the named mappings of one identity provider (names already gone are skipped by the
   * service; a name under another provider is INVALID_ARGUMENT).
   *
   * @example
   * const { externalGroupRoleMappings: gone } = await client.externalGroupRoleMappings.batchDelete(idp.uid, uids);
   */
  async batchDelete(
    parent: string,
    uids: readonly string[],
    options: CallOptions = {},
  ): Promise<BatchDeleteMappingsResponse> {
    const names = uids.map((uid, i) => uidPath(uid, `names[${i}]`, "hierarchical"));
    return await this.transport.send({
      method: "POST",
      path: `${this.base}:batchDelete`,
      body: { parent: uidPath(parent, "parent", "hierarchical"), names },
      schema: BatchDeleteMappingsResponse,
      signal: options.signal,
      retry: options.retry,
    });
  }
}
