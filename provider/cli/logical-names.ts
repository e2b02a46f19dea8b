import type { OrgObject } from "./org-kinds.js";

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await arguments eval undefined " +
    "irv pulumi config rootUid"
  ).split(" "),
);

/**
 * A readable JavaScript identifier for a kebab-case logical name: camelCase, prefixed with the
 * kind (`group2faAdmins`) when it would start with a digit or be a reserved word.
 *
 * @example
 * variableName("team-payments", "Group"); // "teamPayments"
 * variableName("2fa", "Group");           // "group2fa"
 */
export function variableName(logical: string, className: string): string {
  const camel = logical.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  if (/^[0-9]/.test(camel) || RESERVED.has(camel))
    return `${className[0]?.toLowerCase()}${className.slice(1)}${camel[0]?.toUpperCase()}${camel.slice(1)}`;
  return camel;
}

/**
 * Unique, stable logical names for `objects` (in declaration order, parents before children): the
 * slug of the API name; a slug shared by several objects is qualified with the parent group's
 * logical name (`payments-ci`, `search-ci`), and one still shared with its uid's last segment.
 * The result depends only on the objects, so an unchanged organization gives the same names.
 *
 * @example
 * logicalNames(objects).get(object); // "payments-ci"
 */
export function logicalNames(objects: readonly OrgObject[]): Map<OrgObject, string> {
  const count = (names: Iterable<string>) => {
    const n = new Map<string, number>();
    for (const name of names) n.set(name, (n.get(name) ?? 0) + 1);
    return n;
  };
  const bases = count(objects.map((o) => o.baseName));
  // By object, not by uid: a group's account association has the group's uid.
  const names = new Map<OrgObject, string>();
  const groups = new Map<string, string>();
  for (const o of objects) {
    const parent = groups.get(o.parentUid);
    const name =
      (bases.get(o.baseName) ?? 0) > 1 && parent !== undefined ? `${parent}-${o.baseName}` : o.baseName;
    names.set(o, name);
    if (o.className === "Group") groups.set(o.uid, name);
  }
  const qualified = count(names.values());
  for (const o of objects) {
    const name = names.get(o) as string;
    // The last uid segment is unique among siblings, and qualified names of different parents differ.
    if ((qualified.get(name) ?? 0) > 1) names.set(o, `${name}-${o.uid.slice(o.uid.lastIndexOf("/") + 1)}`);
  }
  return names;
}
