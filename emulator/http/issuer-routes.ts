import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { MAX_TOKEN_TTL_SECONDS, TTL_RULE } from "../auth/index.js";
import { freeFormRefinement, requireObject, throwZodViolations } from "../resources/index.js";
import type { AppContext } from "./app-context.js";

const open = { config: { surface: "issuer" as const } };

const MintRequest = z.object({
  subject: z.string().min(1),
  audience: z.string().min(1).optional(),
  ttlSeconds: z
    .number({ message: TTL_RULE })
    .int({ message: TTL_RULE })
    .min(1, { message: TTL_RULE })
    .max(MAX_TOKEN_TTL_SECONDS, { message: TTL_RULE })
    .optional(),
  // Extra claims (a CI system's: `repository`, `ref`, `project_path`, …); JSON values, held to the
  // free-form limits like any map a caller chooses the keys of.
  claims: z.record(z.string().min(1), z.json()).superRefine(freeFormRefinement()).optional(),
});

/**
 * The local OIDC issuer (no authentication: it stands in for an outside identity provider):
 * discovery, JWKS, and `POST {issuerUrl}/token {"subject", "audience"?, "ttlSeconds"?, "claims"?}` →
 * `{"token"}`. The auth URL also publishes the JWKS of the API tokens, for clients that verify them.
 *
 * @example
 * registerIssuerRoutes(app, ctx);
 */
export function registerIssuerRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${ctx.issuerPath}/.well-known/openid-configuration`, open, () => ctx.auth.issuer.discovery());
  app.get(`${ctx.issuerPath}/jwks`, open, () => ctx.auth.issuer.jwks());
  app.post(`${ctx.issuerPath}/token`, open, async (req) => {
    const parsed = MintRequest.safeParse(requireObject(req.body));
    if (!parsed.success) throwZodViolations(parsed.error);
    return { token: await ctx.auth.issuer.mint(parsed.data) };
  });
  app.get(`${ctx.authPath}/jwks`, open, () => ({ keys: [ctx.auth.apiTokens.publicJwk] }));
}
