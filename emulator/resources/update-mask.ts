import type { FieldViolation } from "pulumi-irv/sdk";
import { invalidArgument } from "../core/index.js";
import type { KindRules } from "./kind-rules.js";

// Fields the service sets: never writable, named in errors when a mask lists them.
const OUTPUT_ONLY = new Set([
  "uid",
  "createTime",
  "updateTime",
  "verified",
  "resourceLimits",
  "lastSeenTime",
  "identity",
  "group",
  "role",
  "identityUid",
  "groupUid",
]);

const camel = (path: string) => path.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
// Paths are matched against a body's own fields only: `constructor` or `toString` must never find
// what every object inherits.
const has = (obj: Record<string, unknown>, key: string) => Object.hasOwn(obj, key);

/**
 * The field paths an update changes (AIP-134).
 * - No `updateMask` (or an empty one): the fields present in the body, down to leaves for nested
 *   fields (`claimMatch.subject`); output-only and unknown body fields are ignored.
 * - `updateMask=a,b`: exactly those paths; camelCase JSON names and their snake_case forms
 *   (`claim_match.issuer`) both work. `*` means every mutable field (full replacement). Unknown or output-only paths → code 3
 *   naming the path.
 *
 * @example
 * maskPaths(KIND_RULES.groups, "description", {}); // ["description"]
 * maskPaths(KIND_RULES.groups, undefined, { name: "x", uid: "…" }); // ["name"]
 */
export function maskPaths(
  rules: KindRules,
  updateMask: string | undefined,
  body: Record<string, unknown>,
): string[] {
  const mutable = rules.spec.mutable;
  refuseNotUpdatable(rules);
  refuseUnknownKeys(rules, body);
  const topLevel = mutable.filter((p) => !p.includes("."));

  if (updateMask === undefined || updateMask.trim() === "") {
    const paths: string[] = [];
    for (const p of topLevel) {
      if (!has(body, p)) continue;
      const leaves = mutable.filter((m) => m.startsWith(`${p}.`));
      const value = body[p];
      if (leaves.length === 0 || !isObject(value)) paths.push(p);
      else for (const leaf of leaves) if (has(value, leaf.slice(p.length + 1))) paths.push(leaf);
    }
    return paths;
  }

  const violations: FieldViolation[] = [];
  const paths = new Set<string>();
  for (const raw of updateMask.split(",")) {
    const given = raw.trim();
    if (given === "") continue;
    if (given === "*") {
      for (const p of topLevel) paths.add(p);
      continue;
    }
    // A field whose json_name is its proto name (a repo's sync_config) is matched as written.
    const path = mutable.includes(given) ? given : camel(given);
    const head = path.split(".")[0] ?? path;
    if (mutable.includes(path)) {
      paths.add(path);
    } else if (OUTPUT_ONLY.has(head)) {
      violations.push({
        field: "updateMask",
        description: `${given} is output only or immutable and cannot be updated`,
      });
    } else {
      violations.push({
        field: "updateMask",
        description: `${given} is not a field of ${rules.spec.singular} resources`,
      });
    }
  }
  if (violations.length > 0) throw invalidArgument(violations);
  return [...paths];
}

/**
 * Code 3 for a kind the API never updates (no Update rpc: invites, tags, overlays…), before any
 * permission check: there is no capability to hold. The HTTP routes and gRPC services offer no
 * update for such a kind, so this guards the service core's own callers.
 *
 * @example
 * refuseNotUpdatable(KIND_RULES.groupInvites); // throws: group invite resources are not updated
 */
export function refuseNotUpdatable(rules: KindRules): void {
  if (rules.spec.mutable.length === 0) {
    throw invalidArgument([
      {
        field: "body",
        description: `${rules.spec.singular} resources are not updated; delete and create them again`,
      },
    ]);
  }
}

/**
 * The top-level keys of the kind's message. grpc-gateway turns a PATCH body's keys into a field mask
 * before anything else (`runtime.FieldMaskFromRequestBody` in every generated Update handler) and
 * answers code 3 for a key the message lacks, even when the query names the mask.
 */
function messageFields(rules: KindRules): ReadonlySet<string> | undefined {
  const shape = shapeOf(rules.spec.schema);
  return shape === undefined ? undefined : new Set(Object.keys(shape));
}

type Schema = { shape?: Record<string, unknown>; def?: { in?: Schema } };
// An object's shape, also through a read transform (the identity schema is `object → transform`).
function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  const s = schema as Schema | undefined;
  return s?.shape ?? (s?.def?.in === undefined ? undefined : shapeOf(s.def.in));
}

/**
 * Code 3, one violation per key, for a PATCH body key the kind's message lacks. The gateway decodes
 * the body into a field mask before the service sees the request, so this comes before any
 * permission check or lookup (issue 34: a viewer got 7, an unknown uid 5).
 *
 * @example
 * refuseUnknownKeys(KIND_RULES.groups, { color: "red" }); // throws: could not find field "color"
 */
export function refuseUnknownKeys(rules: KindRules, body: Record<string, unknown>): void {
  const fields = messageFields(rules);
  if (fields === undefined) return;
  const unknown = Object.keys(body).filter((k) => !fields.has(k) && !fields.has(camel(k)));
  if (unknown.length > 0) {
    throw invalidArgument(
      unknown.map((k) => ({
        field: k,
        description: `could not find field ${JSON.stringify(k)} in ${rules.spec.singular} resources`,
      })),
    );
  }
}

/**
 * Applies the update: each path takes the body's value; a path whose value is absent from the body
 * (or `null`) is cleared — removed from the resource — unless it is required (code 3). Parents are
 * applied before their children, so `claimMatch,claimMatch.subject` replaces then refines.
 *
 * @example
 * applyPaths(KIND_RULES.groups, { name: "a", description: "d" }, {}, ["description"]); // { name: "a" }
 */
export function applyPaths(
  rules: KindRules,
  current: Record<string, unknown>,
  body: Record<string, unknown>,
  paths: readonly string[],
): Record<string, unknown> {
  const result = structuredClone(current);
  const violations: FieldViolation[] = [];
  for (const path of [...paths].sort((a, b) => a.length - b.length)) {
    const segments = path.split(".");
    const value = read(body, segments);
    if (value === undefined || value === null) {
      if (rules.required.includes(path)) {
        violations.push({ field: path, description: "is required and cannot be cleared" });
      } else remove(result, segments);
    } else write(result, segments, structuredClone(value));
  }
  if (violations.length > 0) throw invalidArgument(violations);
  return result;
}

function read(obj: Record<string, unknown>, segments: string[]): unknown {
  let cur: unknown = obj;
  for (const s of segments) {
    if (!isObject(cur) || !has(cur, s)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function write(obj: Record<string, unknown>, segments: string[], value: unknown): void {
  let cur = obj;
  for (const s of segments.slice(0, -1)) {
    if (!has(cur, s) || !isObject(cur[s])) define(cur, s, {});
    cur = cur[s] as Record<string, unknown>;
  }
  define(cur, segments[segments.length - 1] as string, value);
}

function remove(obj: Record<string, unknown>, segments: string[]): void {
  let cur: unknown = obj;
  for (const s of segments.slice(0, -1)) {
    if (!isObject(cur) || !has(cur, s)) return;
    cur = cur[s];
  }
  if (isObject(cur)) delete cur[segments[segments.length - 1] as string];
}

// An own, plain data property even for a key like `__proto__` (an assignment would set the prototype).
function define(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}
