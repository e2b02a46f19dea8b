// Compares the sdk's zod wire schemas with the published messages of proto/ field by field, in the
// JSON (lowerCamel) names both write on the wire.
import type { DescMessage } from "@bufbuild/protobuf";
import { WIRE_REGISTRY } from "../../../emulator/grpc/index.js";
import type { KindName } from "../../../sdk/index.js";
import { KINDS } from "../../../sdk/index.js";

/**
 * The published message of each kind's resource.
 *
 * @example
 * KIND_MESSAGES.groups; // "chainguard.platform.iam.v2beta1.Group"
 */
export const KIND_MESSAGES: Record<KindName, string> = {
  groups: "chainguard.platform.iam.v2beta1.Group",
  identities: "chainguard.platform.iam.v2beta1.Identity",
  roles: "chainguard.platform.iam.v2beta1.Role",
  roleBindings: "chainguard.platform.iam.v2beta1.RoleBinding",
  identityProviders: "chainguard.platform.iam.v2beta1.IdentityProvider",
  accountAssociations: "chainguard.platform.iam.v2beta1.AccountAssociation",
  groupInvites: "chainguard.platform.iam.v2beta1.GroupInvite",
  externalGroupRoleMappings: "chainguard.platform.iam.v2beta1.ExternalGroupRoleMapping",
  repos: "chainguard.platform.registry.v2beta1.Repo",
  tags: "chainguard.platform.registry.v2beta1.Tag",
  overlays: "chainguard.platform.registry.v2beta1.Overlay",
  overlayBindings: "chainguard.platform.registry.v2beta1.OverlayBinding",
  subscriptions: "chainguard.platform.events.v2beta1.Subscription",
  advisories: "chainguard.platform.vulnerabilities.v2beta1.Advisory",
};

/**
 * One difference: a field of the message the zod schema lacks (`missing-in-zod`), a zod field the
 * message lacks (`missing-in-proto`), or a message field zod holds as an untyped value (a record or
 * `unknown`: `untyped-in-zod`); `path` is `<kind>.<json path>`.
 *
 * @example
 * const d: Drift = { path: "groups.kind", side: "missing-in-zod" };
 */
export interface Drift {
  path: string;
  side: "missing-in-zod" | "missing-in-proto" | "untyped-in-zod";
}

interface ZodDef {
  type: string;
  shape?: Record<string, ZodLike>;
  innerType?: ZodLike;
  in?: ZodLike;
  element?: ZodLike;
  options?: ZodLike[];
  getter?: () => ZodLike;
}
interface ZodLike {
  _zod: { def: ZodDef };
}

// The object shape a schema validates, through optional/default/nullable/pipes/arrays/lazy; a union of
// objects gives every member's keys. Undefined for a leaf (string, number, enum, record…).
function shapeOf(schema: ZodLike | undefined): Record<string, ZodLike> | undefined {
  const def = schema?._zod.def;
  if (def === undefined) return undefined;
  switch (def.type) {
    case "object":
      return def.shape;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return shapeOf(def.innerType);
    case "pipe":
      return shapeOf(def.in);
    case "array":
      return shapeOf(def.element);
    case "lazy":
      return shapeOf(def.getter?.());
    case "union": {
      const shapes = (def.options ?? []).map(shapeOf).filter((s) => s !== undefined);
      return shapes.length === 0 ? undefined : Object.assign({}, ...shapes);
    }
    default:
      return undefined;
  }
}

const LEAF_MESSAGES = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.Struct",
  "google.protobuf.Value",
]);

function compare(prefix: string, message: DescMessage, zod: Record<string, ZodLike>, out: Drift[]): void {
  const jsonNames = new Set(message.fields.map((f) => f.jsonName));
  for (const f of message.fields) {
    const path = `${prefix}.${f.jsonName}`;
    const z = zod[f.jsonName];
    if (z === undefined) {
      out.push({ path, side: "missing-in-zod" });
      continue;
    }
    const sub =
      f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message")
        ? f.message
        : undefined;
    if (sub !== undefined && !LEAF_MESSAGES.has(sub.typeName)) {
      const shape = shapeOf(z);
      if (shape !== undefined) compare(path, sub, shape, out);
      else if (sub.fields.length > 0) out.push({ path, side: "untyped-in-zod" });
    }
  }
  for (const k of Object.keys(zod)) {
    if (!jsonNames.has(k)) out.push({ path: `${prefix}.${k}`, side: "missing-in-proto" });
  }
}

/**
 * Every difference between the zod schemas of the kinds (their read schemas, as the API answers) and
 * the published messages, sorted.
 *
 * @example
 * fieldDrift(); // [{ path: "groups.kind", side: "missing-in-zod" }, …]
 */
export function fieldDrift(): Drift[] {
  const out: Drift[] = [];
  for (const [kind, typeName] of Object.entries(KIND_MESSAGES) as [KindName, string][]) {
    const message = WIRE_REGISTRY.getMessage(typeName);
    if (message === undefined) throw new Error(`no message ${typeName} in proto/`);
    const shape = shapeOf(KINDS[kind].schema as unknown as ZodLike);
    if (shape === undefined) throw new Error(`the zod schema of ${kind} is not an object`);
    compare(kind, message, shape, out);
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
