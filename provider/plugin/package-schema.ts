import { z } from "zod";
import { REQUEST_LIMIT_SETTINGS, SETTINGS } from "../config/index.js";
import { dataSourceTable } from "../data-sources/index.js";
import type { AnyKind } from "../runtime/index.js";
import { KIND_DEFINITIONS } from "../runtime/index.js";
import { RESOURCE_TYPES } from "../stub/index.js";
import { resourceToken } from "./module-of.js";
import { functionToken, PACKAGE } from "./type-tokens.js";

/**
 * A property's type in Pulumi's package schema (the subset this package uses).
 *
 * @example
 * const t: SchemaType = { type: "array", items: { type: "string" } };
 */
export type SchemaType =
  | { type: "string" | "number" | "integer" | "boolean" }
  | { type: "array"; items: SchemaType }
  | { type: "object"; additionalProperties: SchemaType }
  | { $ref: string };

/**
 * A property of the package schema.
 *
 * @example
 * const p: SchemaProperty = { type: "string", description: "Group name", replaceOnChanges: true };
 */
export type SchemaProperty = SchemaType & {
  description?: string;
  secret?: boolean;
  replaceOnChanges?: boolean;
};

/**
 * An object type of the package schema: properties, required ones.
 *
 * @example
 * const args: SchemaObject = { properties: { name: { type: "string" } }, required: ["name"] };
 */
export interface SchemaObject {
  description?: string;
  properties: Record<string, SchemaProperty>;
  required?: string[];
}

/**
 * The documentation the TypeScript front end carries (TSDoc), which the schema repeats for every
 * language: made by `scripts/plugin-schema.ts` from the sources.
 *
 * @example
 * const docs: SchemaDocs = { resources: { Group: { description: "A group…", properties: { name: "Group name…" } } }, functions: {} };
 */
export interface SchemaDocs {
  /** By resource type: the class's doc comment, its Args' and its output properties' ones. */
  resources: Record<string, { description?: string; properties: Record<string, string> }>;
  /** By data source name (`irv.iam.getRoles`): the function's doc and its argument and result shapes. */
  functions: Record<string, { description?: string; inputs: SchemaObject; outputs: SchemaObject }>;
  /** The named object types the results refer to (`irv:iam:GetRolesRoles`): a role, a repo, … */
  types?: Record<string, SchemaObject & { type: "object" }>;
}

/**
 * The default `pluginDownloadURL`: this repository's GitHub releases, where a `v*` tag publishes the
 * plugin archives (docs/releasing.md).
 *
 * @example
 * packageSchema("0.1.0", docs).pluginDownloadURL === PLUGIN_DOWNLOAD_URL; // true
 */
export const PLUGIN_DOWNLOAD_URL = "github://api.github.com/pulumi-irv/pulumi-irv";

/**
 * The Pulumi package schema of the native plugin, made from the kind table (zod input schemas and
 * server outputs, replace keys, secrets), the settings table and the data source table, with the
 * TypeScript docs. Nothing in it is written by hand: a new kind, field or lookup appears when it
 * appears there.
 *
 * @example
 * const schema = packageSchema("0.1.0", docs);
 * schema.resources["irv:iam:Group"].inputProperties.parentUid.replaceOnChanges; // true
 */
export function packageSchema(version: string, docs: SchemaDocs) {
  const types: Record<string, SchemaObject & { type: "object" }> = {};
  const resources: Record<string, unknown> = {};
  for (const type of RESOURCE_TYPES) {
    const kind = KIND_DEFINITIONS[type];
    const token = resourceToken(type);
    const doc = docs.resources[type] ?? { properties: {} };
    const convert = converter(token, kind, types);
    const inputs = jsonSchemaOf(kind.inputs);
    const outputs = outputSchemaOf(kind.outputs);
    const inputProperties: Record<string, SchemaProperty> = {};
    for (const [key, s] of Object.entries(inputs.properties ?? {}))
      inputProperties[key] = withDoc(convert(s, [key]), doc.properties[key], {
        replaceOnChanges: kind.replaceKeys.includes(key) || (kind.replacePaths ?? []).includes(key),
      });
    const properties: Record<string, SchemaProperty> = { ...inputProperties };
    for (const [key, s] of Object.entries(outputs.properties ?? {}))
      properties[key] = withDoc(convert(s, [key]), doc.properties[key], {});
    // `name` defaults to the logical name, so a program may leave it out; the state always has it.
    const requiredInputs = (inputs.required ?? []).filter((k) => k !== "name");
    const requiredOutputs = [...new Set([...(inputs.required ?? []), ...(outputs.required ?? [])])];
    // The TypeScript docs name the dynamic provider's token; here the resource has the native one.
    const about = (doc.description ?? `An IRV ${kind.singular}.`).replaceAll(
      `pulumi-nodejs:dynamic/irv:${type}`,
      token,
    );
    resources[token] = {
      description: `${about}\n\n## Import\n\nThe import id is the ${kind.singular}'s uid:\n\n\`\`\`sh\n$ pulumi import ${token} <name> <uid>\n\`\`\``,
      properties,
      required: requiredOutputs.filter((k) => k in properties),
      inputProperties,
      requiredInputs,
    };
  }
  Object.assign(types, docs.types);
  const functions: Record<string, unknown> = {};
  for (const name of [...dataSourceTable().keys()].sort()) {
    const doc = docs.functions[name];
    if (!doc) throw new Error(`pulumi-irv: no documentation extracted for the data source ${name}`);
    functions[functionToken(name)] = {
      ...(doc.description ? { description: doc.description } : {}),
      inputs: doc.inputs,
      outputs: doc.outputs,
    };
  }
  const config: Record<string, SchemaProperty> = {};
  for (const [name, s] of Object.entries(SETTINGS)) {
    const key = s.config.slice(PACKAGE.length + 1);
    const typed = CONFIG_TYPES[name as keyof typeof SETTINGS];
    config[key] = {
      type: typed?.type ?? "string",
      description: `${typed ? `${typed.rule}. ` : ""}Falls back to the environment variable ${s.env}.`,
      ...("secret" in s ? { secret: true } : {}),
    };
  }
  return {
    name: PACKAGE,
    displayName: "IRV",
    version,
    description:
      "The Identity, Registry and Vulnerability Platform (IRV): groups, identities, roles and bindings.",
    keywords: ["pulumi", "irv", "category/utility", "kind/native"],
    license: "Apache-2.0",
    repository: "https://github.com/pulumi-irv/pulumi-irv",
    // Where the engine downloads `pulumi-resource-irv-v<version>-<os>-<arch>.tar.gz` on first use;
    // `npm run release -- --download-url URL` builds a release (schema and SDKs) for another server.
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    meta: { moduleFormat: "(.*)" },
    // What each language's generator needs (scripts/build-sdks.ts): the PyPI name, the Go module path
    // (generated-sdks/go/irv in this repository) and the versions the SDKs require. `respectSchemaVersion`
    // stamps this package's one version on every SDK.
    language: {
      python: {
        packageName: "pulumi_irv",
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        requires: { pulumi: ">=3.142.0,<4.0.0" },
      },
      go: {
        importBasePath: "github.com/pulumi-irv/pulumi-irv/generated-sdks/go/irv",
        respectSchemaVersion: true,
        generateResourceContainerTypes: true,
      },
      nodejs: { packageName: "@pulumi-irv/irv", respectSchemaVersion: true },
    },
    config: { variables: config },
    provider: {
      description:
        "The IRV provider: one organization's API and credentials (several in one program need explicit providers).",
      inputProperties: config,
    },
    types,
    resources,
    functions,
  };
}

// The settings that are not text, typed so that each language's SDK takes a boolean or a number
// (the plugin reads either form: `settingValue` in native-provider.ts); the rest are strings.
const limit = (k: keyof typeof REQUEST_LIMIT_SETTINGS, type: "number" | "integer") => ({
  type,
  rule: REQUEST_LIMIT_SETTINGS[k].rule.replace(/^a/, "A"),
});
const CONFIG_TYPES: Partial<
  Record<keyof typeof SETTINGS, { type: "boolean" | "number" | "integer"; rule: string }>
> = {
  allowInsecureHttp: { type: "boolean", rule: "Whether a plain-http URL of a non-loopback host is allowed" },
  maxRequestsPerSecond: limit("maxRequestsPerSecond", "number"),
  maxRetries: limit("maxRetries", "integer"),
  retryDelayMs: limit("retryDelayMs", "integer"),
  retryMaxDelayMs: limit("retryMaxDelayMs", "integer"),
  maxRateLimitWaitSeconds: limit("maxRateLimitWaitSeconds", "number"),
  timeoutSeconds: { type: "number", rule: "Seconds to wait for each answer, fractions allowed (default 60)" },
};

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  description?: string;
}

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JsonSchema {
  // Refinements (uid rules, "exactly one variant") are the plugin's check; the schema keeps the shape.
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
}

// The outputs as the state holds them (a default fills `verified`, so it is always there), except
// where a reader's transform (`null` read as absent) has no JSON Schema on its output side: there
// what it accepts is what the state holds.
function outputSchemaOf(schema: z.ZodType): JsonSchema {
  return readOrAccepted(jsonSchemaOf(schema, "output"), jsonSchemaOf(schema, "input"));
}

// At every depth (a binding's `identity.description` is as much a reader as a top-level field).
function readOrAccepted(read: JsonSchema, accepted: JsonSchema | undefined): JsonSchema {
  if (Object.keys(read).length === 0) return accepted ?? read;
  const out: JsonSchema = { ...read };
  if (read.properties) {
    out.properties = {};
    for (const [key, s] of Object.entries(read.properties))
      out.properties[key] = readOrAccepted(s, accepted?.properties?.[key]);
  }
  if (read.items) out.items = readOrAccepted(read.items, accepted?.items);
  if (read.anyOf) out.anyOf = read.anyOf.map((s, i) => readOrAccepted(s, accepted?.anyOf?.[i]));
  return out;
}

// Nested objects become named types `irv:<module>:<Type><Path>` (Pulumi has no inline object types).
function converter(token: string, kind: AnyKind, types: Record<string, SchemaObject & { type: "object" }>) {
  const secrets = new Set(kind.secrets ?? []);
  // A nested field whose change replaces the resource (`oidc.correlationRule`): the generators put
  // its path in each SDK's replaceOnChanges, as they do for a top-level input.
  const replaced = new Set(kind.replacePaths ?? []);
  const convert = (s: JsonSchema, path: string[]): SchemaProperty => {
    // `null` is how the service writes an unset value, which the readers take as absent.
    const nonNull = s.anyOf?.filter((a) => a.type !== "null");
    if (nonNull?.length === 1 && nonNull[0])
      return convert({ ...nonNull[0], ...(s.description ? { description: s.description } : {}) }, path);
    // A value read as text or as a number (an enum by name or number, an int64 as protojson's decimal
    // string or as a number) is text in the state: the readers turn numbers into names and strings.
    const scalars = nonNull?.map((a) => a.type);
    if (scalars !== undefined && scalars.length > 1 && scalars.includes("string") && scalars.every(isScalar))
      return convert({ type: "string", ...(s.description ? { description: s.description } : {}) }, path);
    // …or, for a nullable scalar, `type: ["string", "null"]`.
    if (Array.isArray(s.type)) {
      const [only, ...more] = s.type.filter((t) => t !== "null");
      if (only !== undefined && more.length === 0) return convert({ ...s, type: only }, path);
    }
    const secret = secrets.has(path.join(".")) ? { secret: true } : {};
    switch (s.type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
        return { type: s.type, ...secret };
      case "array":
        return { type: "array", items: s.items ? strip(convert(s.items, path)) : ANY, ...secret };
      case "object": {
        if (s.properties) {
          const name = `${token}${path.map((p) => p[0]?.toUpperCase() + p.slice(1)).join("")}`;
          const properties: Record<string, SchemaProperty> = {};
          for (const [k, v] of Object.entries(s.properties))
            properties[k] = {
              ...convert(v, [...path, k]),
              ...(replaced.has([...path, k].join(".")) ? { replaceOnChanges: true } : {}),
            };
          types[name] = {
            type: "object",
            properties,
            ...(s.required?.length ? { required: s.required } : {}),
          };
          return { $ref: `#/types/${name}`, ...secret };
        }
        const values =
          typeof s.additionalProperties === "object" ? strip(convert(s.additionalProperties, path)) : ANY;
        return { type: "object", additionalProperties: values, ...secret };
      }
      default:
        return { ...ANY, ...secret };
    }
  };
  return convert;
}

const ANY: SchemaType = { $ref: "pulumi.json#/Any" };

const isScalar = (t: JsonSchema["type"]) =>
  t === "string" || t === "number" || t === "integer" || t === "boolean";

function strip(p: SchemaProperty): SchemaType {
  const { description: _d, secret: _s, replaceOnChanges: _r, ...type } = p;
  return type as SchemaType;
}

function withDoc(
  p: SchemaProperty,
  description: string | undefined,
  extra: { replaceOnChanges?: boolean },
): SchemaProperty {
  return {
    ...p,
    ...(description ? { description } : {}),
    ...(extra.replaceOnChanges ? { replaceOnChanges: true } : {}),
  };
}
