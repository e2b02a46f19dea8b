import type { Capability } from "pulumi-irv/sdk";
import type { Caller } from "../auth/index.js";
import { ancestorUid, invalidArgument, notFound, permissionDenied } from "../core/index.js";
import { KIND_RULES } from "./kind-rules.js";
import type { ServiceCore } from "./service-core.js";
import { requireObject } from "./violations.js";

const key = (repoUid: string) => `readme:${repoUid}`;
// Published repos.proto, UpdateRepoReadme: both, the second internal to the service (no built-in
// role a customer binds holds it; the emulator's admin token does).
const WRITE: readonly Capability[] = ["repo.update", "repo.internal.admin"];

/**
 * A repo's readme, the published `RepoReadme` singleton (`…/repos/<uid>/readme`): read with
 * `repo.list`; written with `repo.update` and `repo.internal.admin`, content only (an
 * `update_mask`, when given, may name `content` alone). A synced repo's readme is its source's, and
 * writing it is code 3. Held apart from the repo's row: the published `Repo` has no readme field.
 *
 * @example
 * const readmes = new RepoReadmes(core);
 * readmes.update(caller, repoUid, { content: "# nginx" }, undefined);
 */
export class RepoReadmes {
  constructor(private readonly core: ServiceCore) {}

  /**
   * The readme of a repo (`""` when none was written).
   *
   * @example
   * readmes.get(caller, repoUid); // '{"uid":"…","content":""}'
   */
  get(caller: Caller, uid: string): string {
    if (!this.core.mayRead(caller, KIND_RULES.repos, uid)) {
      throw permissionDenied(`read the readme of repo ${JSON.stringify(uid)}`);
    }
    const repo = this.repo(uid);
    const source = repo.sync_config?.source;
    const content = this.core.db.getMeta(key(typeof source === "string" ? source : uid)) ?? "";
    return JSON.stringify({ uid, content });
  }

  /**
   * Writes a repo's readme; answers it.
   *
   * @example
   * readmes.update(caller, repoUid, { content: "# nginx" }, "content");
   */
  update(caller: Caller, uid: string, body: unknown, updateMask: string | undefined): string {
    const fields = requireObject(body);
    const unknown = Object.keys(fields).filter((k) => k !== "uid" && k !== "content");
    if (unknown.length > 0) {
      throw invalidArgument(
        unknown.map((k) => ({ field: k, description: "is not a field of a repo readme (uid, content)" })),
      );
    }
    if (typeof fields.content !== "string" && fields.content !== undefined && fields.content !== null) {
      throw invalidArgument([{ field: "content", description: "must be a string" }]);
    }
    const paths = (updateMask ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== "");
    const other = paths.filter((p) => p !== "content" && p !== "*");
    if (other.length > 0) {
      throw invalidArgument(
        other.map((p) => ({
          field: "updateMask",
          description: `${p} is not a field of a repo readme that can be updated`,
        })),
      );
    }
    const scope = ancestorUid(uid, 1) ?? uid;
    const lacking = caller.lacking(WRITE, scope);
    if (lacking.length > 0) {
      throw permissionDenied(
        `update the readme of repo ${JSON.stringify(uid)}: it lacks ${lacking.join(" and ")} on group ${JSON.stringify(scope)}`,
      );
    }
    return this.core.db.transaction(() => {
      const repo = this.repo(uid);
      if (repo.sync_config !== null && repo.sync_config !== undefined) {
        throw invalidArgument([
          { field: "content", description: "a synced repo's readme is its source's and cannot be written" },
        ]);
      }
      const content = typeof fields.content === "string" ? fields.content : "";
      if (paths.length > 0 || fields.content !== undefined) this.core.db.setMeta(key(uid), content);
      return this.get(caller, uid);
    });
  }

  /**
   * Forgets a deleted repo's readme.
   *
   * @example
   * readmes.forget(repoUid);
   */
  forget(uid: string): void {
    if (this.core.db.getMeta(key(uid)) !== undefined) this.core.db.setMeta(key(uid), "");
  }

  private repo(uid: string): { sync_config?: { source?: unknown } | null } {
    const data = this.core.table.data("repos", uid);
    if (data === undefined) throw notFound(KIND_RULES.repos.spec.singular, uid);
    return JSON.parse(data) as { sync_config?: { source?: unknown } | null };
  }
}
