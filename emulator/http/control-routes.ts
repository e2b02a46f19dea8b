import type { FastifyInstance } from "fastify";
import { Code } from "pulumi-irv/sdk";
import { z } from "zod";
import {
  ApiFault,
  formatFaultSpec,
  formatRateLimit,
  invalidArgument,
  parseFaultSpec,
  parseRateLimit,
} from "../core/index.js";
import {
  AdvisorySeed,
  Fixtures,
  KIND_RULES,
  loadFixtures,
  RepoSeed,
  requireObject,
  TagSeed,
  throwZodViolations,
} from "../resources/index.js";
import type { AppContext } from "./app-context.js";
import { replyJson, uidParam } from "./reply-json.js";

const control = { config: { surface: "control" as const } };

const Name = z.string().min(1);
// The published fields of each read-only kind (see the seed schemas), plus its parent and an
// optional uid.
const SEEDS = {
  repos: { parentField: "parentUid", schema: RepoSeed.extend({ parentUid: Name, uid: Name.optional() }) },
  tags: { parentField: "repoUid", schema: TagSeed.extend({ repoUid: Name, uid: Name.optional() }) },
  advisories: {
    parentField: "parentUid",
    schema: AdvisorySeed.extend({ parentUid: Name, uid: Name.optional() }),
  },
} as const;

function parse<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const r = schema.safeParse(requireObject(body));
  if (!r.success) throwZodViolations(r.error);
  return r.data;
}

/**
 * The control API under `/_emulator` (admin token only; never faulted, never counted):
 * - `POST /_emulator/repos {parentUid, name, …}`, `POST /_emulator/tags {repoUid, name, digest?, …}`,
 *   `POST /_emulator/advisories {parentUid, advisoryId?, aliases?, severities?, artifactName?, …}`
 *   (each with the published message's fields, `uid?`; unknown keys dropped) → the resource;
 *   `DELETE /_emulator/{repos,tags,advisories}/<uid>` (a repo takes its tags and overlay bindings along);
 * - `POST /_emulator/custom-assembly {groupUid, enabled}`: custom assembly for a group and the groups
 *   below it not set themselves (on for the organization by default) → the setting;
 * - `POST /_emulator/fixtures` with a fixture document → counts per kind;
 * - `GET /_emulator/stats`, `POST /_emulator/stats/reset`;
 * - `GET /_emulator/faults`, `POST /_emulator/faults {"spec": "503=0.1,…"}` (or a JSON string);
 * - `GET /_emulator/rate-limit`, `POST /_emulator/rate-limit {"spec": "50,burst=100"}` (or `"none"`);
 * - `GET /_emulator/deliveries[?type=…&subscription=…&outcome=…]` → `{"deliveries": […]}`, each
 *   webhook delivery with its attempts and outcome, oldest first.
 *
 * @example
 * registerControlRoutes(app, ctx);
 */
export function registerControlRoutes(app: FastifyInstance, ctx: AppContext): void {
  const s = ctx.service;
  for (const [kind, seed] of Object.entries(SEEDS)) {
    const rules = KIND_RULES[kind as keyof typeof SEEDS];
    app.post(`/_emulator/${kind}`, control, (req, reply) => {
      const { uid, ...fields } = parse(seed.schema, req.body) as Record<string, unknown> & { uid?: string };
      const parent = fields[seed.parentField] as string;
      delete fields[seed.parentField];
      const row = s.table.db.transaction(() => s.insert(rules, parent, fields, uid));
      return replyJson(reply, row.data);
    });
    app.delete(`/_emulator/${kind}/*`, control, (req, reply) => {
      s.remove(rules.name, uidParam(req));
      reply.send();
    });
  }
  // Custom assembly per group (a repo's customOverlay needs it): on for the org unless set.
  const CustomAssembly = z.object({ groupUid: Name, enabled: z.boolean() });
  app.post("/_emulator/custom-assembly", control, (req) => {
    const { groupUid, enabled } = parse(CustomAssembly, req.body);
    s.setCustomAssembly(groupUid, enabled);
    return { groupUid, enabled };
  });
  app.post("/_emulator/fixtures", control, (req) => {
    const parsed = Fixtures.safeParse(requireObject(req.body));
    if (!parsed.success) throwZodViolations(parsed.error);
    try {
      return { created: loadFixtures(s, parsed.data) };
    } catch (e) {
      if (e instanceof ApiFault) throw e;
      throw new ApiFault(Code.INVALID_ARGUMENT, (e as Error).message);
    }
  });
  app.get("/_emulator/stats", control, () => ctx.stats.snapshot());
  app.post("/_emulator/stats/reset", control, () => {
    ctx.stats.reset();
    return ctx.stats.snapshot();
  });
  app.get("/_emulator/deliveries", control, (req) => {
    const q = req.query as Record<string, unknown>;
    const one = (k: string) => (typeof q[k] === "string" ? (q[k] as string) : undefined);
    return {
      deliveries: ctx.deliveries.list({
        type: one("type"),
        subscription: one("subscription"),
        outcome: one("outcome"),
      }),
    };
  });
  app.get("/_emulator/faults", control, () => ({ spec: formatFaultSpec(ctx.faults.spec) }));
  app.post("/_emulator/faults", control, (req) => {
    ctx.faults.set(parseSpec(req.body, parseFaultSpec, "503=0.1,latency=20"));
    return { spec: formatFaultSpec(ctx.faults.spec) };
  });
  app.get("/_emulator/rate-limit", control, () => ({ spec: formatRateLimit(ctx.rateLimiter.spec) }));
  app.post("/_emulator/rate-limit", control, (req) => {
    ctx.rateLimiter.set(parseSpec(req.body, parseRateLimit, "50,burst=100"));
    return { spec: formatRateLimit(ctx.rateLimiter.spec) };
  });
}

// A spec body: `{"spec": "…"}` or a JSON string; a missing or bad spec is code 3 on `spec`.
function parseSpec<T>(body: unknown, parse: (spec: string) => T, example: string): T {
  const spec =
    typeof body === "string"
      ? body
      : typeof (body as { spec?: unknown })?.spec === "string"
        ? (body as { spec: string }).spec
        : undefined;
  if (spec === undefined)
    throw invalidArgument([{ field: "spec", description: `is required, e.g. {"spec": "${example}"}` }]);
  try {
    return parse(spec);
  } catch (e) {
    throw invalidArgument([{ field: "spec", description: (e as Error).message }]);
  }
}
