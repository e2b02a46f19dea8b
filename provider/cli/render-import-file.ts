import { resourceToken } from "../plugin/index.js";
import { isStubType } from "../stub/index.js";
import { logicalNames } from "./logical-names.js";
import type { Arg, OrgObject } from "./org-kinds.js";

/**
 * Pulumi's bulk import file (`pulumi import --file import.json`) for the native plugin: one entry
 * per object, its native type token, its logical name and its uid as the import id. Pulumi then
 * writes the program itself, in the project's language (a YAML project gets YAML). Objects it
 * cannot adopt are left out with their reason: those `import-org` does not generate (invites), and
 * those with a write-only secret the API never returns (an identity provider's client secret), which
 * the engine's check would refuse without a value.
 *
 * @example
 * const { files, skipped } = renderImportFile(objects);
 * files["import.json"]; // '{ "resources": [{ "type": "irv:iam:Group", "name": "platform", "id": "…" }, …] }'
 */
export function renderImportFile(objects: readonly OrgObject[]): {
  files: Record<string, string>;
  skipped: { object: OrgObject; reason: string }[];
} {
  const skipped: { object: OrgObject; reason: string }[] = [];
  const adopted: OrgObject[] = [];
  for (const o of objects) {
    if (o.unsupported !== undefined) skipped.push({ object: o, reason: o.unsupported });
    else if (hasSecret(o.args))
      skipped.push({
        object: o,
        reason: "a write-only secret the API never returns: import it from a program that sets the value",
      });
    else adopted.push(o);
  }
  const names = logicalNames(adopted);
  const resources = adopted.map((o) => {
    if (!isStubType(o.className)) throw new Error(`pulumi-irv: no resource type ${o.className}`);
    return { type: resourceToken(o.className), name: names.get(o) ?? o.baseName, id: o.uid };
  });
  return { files: { "import.json": `${JSON.stringify({ resources }, null, 2)}\n` }, skipped };
}

function hasSecret(arg: Arg | Record<string, Arg>): boolean {
  if (typeof arg !== "object" || arg === null) return false;
  if (Array.isArray(arg)) return arg.some(hasSecret);
  if ("secret" in arg) return true;
  if ("ref" in arg) return false;
  const fields =
    "fields" in arg && typeof arg.fields === "object" ? (arg.fields as Record<string, Arg>) : arg;
  return Object.values(fields).some((v) => hasSecret(v as Arg));
}
