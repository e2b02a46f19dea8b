import type { FastifyInstance, FastifyRequest } from "fastify";
import type { KindName } from "pulumi-irv/sdk";
import { collectionPath } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { QueryValues } from "../lists/index.js";
import { KIND_RULES } from "../resources/index.js";
import type { AppContext } from "./app-context.js";
import { replyJson, uidParam } from "./reply-json.js";
import { callerOf } from "./request-context.js";

const api = { config: { surface: "api" as const } };

const query = (req: FastifyRequest) => req.query as QueryValues;

function updateMaskOf(req: FastifyRequest): string | undefined {
  const m = query(req).updateMask ?? query(req).update_mask;
  if (Array.isArray(m))
    throw invalidArgument([{ field: "updateMask", description: "must be given once (a comma list)" }]);
  return m;
}

/**
 * The v2beta1 routes of every kind of {@link KIND_RULES} plus the v1 read paths:
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
    const kind: KindName = rules.name;
    const base = collectionPath(rules.spec);
    app.get(base, api, (req, reply) => replyJson(reply, s.list(callerOf(req), kind, query(req))));
    app.get(`${base}/*`, api, (req, reply) => {
      const uid = uidParam(req);
      return replyJson(
        reply,
        uid === "" ? s.list(callerOf(req), kind, query(req)) : s.get(callerOf(req), kind, uid),
      );
    });
    if (!rules.spec.writable) continue;
    app.post(`${base}/*`, api, (req, reply) =>
      replyJson(reply, s.create(callerOf(req), kind, uidParam(req), req.body)),
    );
    app.patch(`${base}/*`, api, (req, reply) =>
      replyJson(reply, s.update(callerOf(req), kind, uidParam(req), req.body, updateMaskOf(req))),
    );
    app.delete(`${base}/*`, api, (req, reply) => {
      s.delete(callerOf(req), kind, uidParam(req));
      // Empty body, no content type (spec §4 rule 3).
      reply.send();
    });
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
