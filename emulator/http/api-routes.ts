import type { FastifyInstance, FastifyRequest } from "fastify";
import type { KindName } from "pulumi-irv/sdk";
import { collectionPath } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { QueryValues } from "../lists/index.js";
import type { KindRules } from "../resources/index.js";
import { KIND_RULES, requireObject } from "../resources/index.js";
import type { AppContext } from "./app-context.js";
import { replyJson, uidParam } from "./reply-json.js";
import { callerOf } from "./request-context.js";

const api = { config: { surface: "api" as const } };
const README = "/readme";

const query = (req: FastifyRequest) => req.query as QueryValues;

function updateMaskOf(req: FastifyRequest): string | undefined {
  const m = query(req).updateMask ?? query(req).update_mask;
  if (Array.isArray(m))
    throw invalidArgument([{ field: "updateMask", description: "must be given once (a comma list)" }]);
  return m;
}

/**
 * The routes of every kind of {@link KIND_RULES} at each version it is served at (v2beta1 and its GA
 * copy v2, one store behind both) plus the v1 read paths:
 * `GET <collection>` (list), `GET <collection>/<uid>` (get), `POST <collection>/<parent_uid>`
 * (create, custom roles included), `PATCH <collection>/<uid>[?updateMask=…]`,
 * `DELETE <collection>/<uid>` (empty body). Uids hold slashes, hence wildcard routes.
 *
 * @example
 * registerApiRoutes(app, ctx);
 */
export function registerApiRoutes(app: FastifyInstance, ctx: AppContext): void {
  const s = ctx.service;
  for (const rules of Object.values(KIND_RULES)) {
    for (const version of rules.versions)
      registerKindRoutes(app, ctx, rules, collectionPath(rules.spec, version));
  }
  // v1 kept for side-by-side migration (spec §9): the v1 shape, unpaged.
  app.get("/iam/v1/groups", api, (req, reply) =>
    replyJson(reply, s.listV1(callerOf(req), "groups", query(req))),
  );
  app.get("/registry/v1/repos", api, (req, reply) =>
    replyJson(reply, s.listV1(callerOf(req), "repos", query(req))),
  );

  app.get(`${ctx.authPath}/sts/exchange`, { config: { surface: "sts" } }, async (req, reply) => {
    const token = await ctx.auth.sts.exchange(req.headers.authorization, query(req));
    return replyJson(reply, JSON.stringify({ token }));
  });
}

function registerKindRoutes(app: FastifyInstance, ctx: AppContext, rules: KindRules, base: string): void {
  const s = ctx.service;
  const kind: KindName = rules.name;
  // A repo's readme is its sub-resource `<repo uid>/readme` (published repos.proto).
  const readmeOf = (uid: string) =>
    kind === "repos" && uid.endsWith(README) ? uid.slice(0, -README.length) : undefined;
  app.get(base, api, (req, reply) => replyJson(reply, s.list(callerOf(req), kind, query(req))));
  app.get(`${base}/*`, api, (req, reply) => {
    const uid = uidParam(req);
    const readme = readmeOf(uid);
    if (readme !== undefined) return replyJson(reply, s.getReadme(callerOf(req), readme));
    return replyJson(
      reply,
      uid === "" ? s.list(callerOf(req), kind, query(req)) : s.get(callerOf(req), kind, uid),
    );
  });
  if (rules.writes.includes("create")) {
    app.post(`${base}/*`, api, (req, reply) =>
      replyJson(reply, s.create(callerOf(req), kind, uidParam(req), req.body)),
    );
  }
  if (rules.writes.includes("update")) {
    app.patch(`${base}/*`, api, (req, reply) => {
      const uid = uidParam(req);
      const readme = readmeOf(uid);
      return replyJson(
        reply,
        readme === undefined
          ? s.update(callerOf(req), kind, uid, req.body, updateMaskOf(req))
          : s.updateReadme(callerOf(req), readme, req.body, updateMaskOf(req)),
      );
    });
  }
  if (rules.writes.includes("delete")) {
    app.delete(`${base}/*`, api, (req, reply) => {
      s.delete(callerOf(req), kind, uidParam(req));
      // Empty body, no content type (spec §4 rule 3).
      reply.send();
    });
  }
  if (kind === "externalGroupRoleMappings") {
    // `POST …/externalGroupRoleMappings:batchDelete {parent, names}` (a literal colon: `::` to the router).
    app.post(`${base}::batchDelete`, api, (req, reply) => {
      const body = requireObject(req.body);
      return replyJson(reply, s.batchDeleteMappings(callerOf(req), String(body.parent ?? ""), body.names));
    });
  }
}
