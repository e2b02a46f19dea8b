import type { FastifyInstance } from "fastify";
import type { FieldViolation } from "pulumi-irv/sdk";
import { findInJson, invalidArgument, isContainer, isWellFormed } from "../core/index.js";

/**
 * How deep objects and arrays may nest in any request body (deeper → code 3). Generous for every
 * real body (a fixture document nests groups 30 deep within it); it keeps every recursive step after
 * parsing (zod, structuredClone, JSON.stringify) far from the stack limit.
 *
 * @example
 * bodyViolation(JSON.parse("[".repeat(65) + "]".repeat(65))); // { field: "body", … }
 */
export const MAX_BODY_DEPTH = 64;

/**
 * The first problem of a parsed JSON body, or undefined: containers nested deeper than
 * {@link MAX_BODY_DEPTH}, or a string or key that is not well-formed Unicode (a lone surrogate such
 * as `"\ud800"` cannot be stored: it would become U+FFFD and two different names would collide). The
 * violation names the JSON path.
 *
 * @example
 * bodyViolation({ name: "\ud800" }); // { field: "name", description: "is not well-formed Unicode …" }
 */
export function bodyViolation(value: unknown): FieldViolation | undefined {
  return findInJson<FieldViolation>(value, (n) => {
    const field = () => n.path() || "body";
    if (typeof n.key === "string" && !isWellFormed(n.key)) {
      return { field: field(), description: "has a key that is not well-formed Unicode (a lone surrogate)" };
    }
    if (typeof n.value === "string" && !isWellFormed(n.value)) {
      return { field: field(), description: "is not well-formed Unicode (it holds a lone surrogate)" };
    }
    if (isContainer(n.value) && n.depth + 1 > MAX_BODY_DEPTH) {
      // The top-level field: a path 64 levels long would bury the point.
      return {
        field: n.path().split(".")[0] || "body",
        description: `nests objects and arrays more than ${MAX_BODY_DEPTH} levels deep`,
      };
    }
    return undefined;
  });
}

/**
 * Makes the app read JSON bodies only: parsed as fastify does (refusing `__proto__` and
 * `constructor.prototype` keys, which would poison objects), then checked by {@link bodyViolation};
 * every failure is code 3 naming the body or the JSON path. Any other content type is fine without a
 * body (a DELETE with a stray header) and refused with one.
 *
 * @example
 * registerJsonBody(app);
 */
export function registerJsonBody(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    if (body === "") return done(null, undefined);
    json(req, body as string, (error, value) => {
      if (error) {
        return done(
          invalidArgument([{ field: "body", description: `is not valid JSON (${error.message})` }]),
        );
      }
      const violation = bodyViolation(value);
      if (violation !== undefined) done(invalidArgument([violation]));
      else done(null, value);
    });
  });
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    if (body === "") return done(null, undefined);
    done(invalidArgument([{ field: "Content-Type", description: "must be application/json" }]));
  });
}
