import type { z } from "zod";
import type { Repo, RepoCreate } from "../schemas/registry.js";
import { RepoReadme } from "../schemas/registry.js";
import type { CallOptions } from "./resource-client.js";
import { ResourceClient } from "./resource-client.js";

/**
 * The repos of the API, with their README, a sub-resource of its own
 * (`…/repos/<uid>/readme`). Writing a README needs `repo.update` and the service's internal
 * `repo.internal.admin`, so the service may refuse it to a customer.
 *
 * @example
 * const repo = await client.repos.create(orgUid, { name: "nginx" });
 * const { content } = await client.repos.getReadme(repo.uid);
 */
export class RepoClient extends ResourceClient<Repo, RepoCreate> {
  /**
   * The README of a repo.
   *
   * @example
   * (await client.repos.getReadme(repo.uid)).content; // "# nginx\n…"
   */
  async getReadme(uid: string, options: CallOptions = {}): Promise<z.output<typeof RepoReadme>> {
    return await this.transport.send({
      method: "GET",
      path: `${this.itemPath(uid)}/readme`,
      schema: RepoReadme,
      signal: options.signal,
      retry: options.retry,
    });
  }

  /**
   * Replaces the README of a repo.
   *
   * @example
   * await client.repos.updateReadme(repo.uid, "# nginx\nOur build.");
   */
  async updateReadme(
    uid: string,
    content: string,
    options: CallOptions = {},
  ): Promise<z.output<typeof RepoReadme>> {
    return await this.transport.send({
      method: "PATCH",
      path: `${this.itemPath(uid)}/readme`,
      query: { updateMask: "content" },
      body: { content },
      schema: RepoReadme,
      signal: options.signal,
      retry: options.retry,
    });
  }
}
