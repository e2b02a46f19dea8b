/**
 * Every key path of a JSON value (`github.appInstallations.*.installations.*.installationId`): array
 * indexes and the keys of the objects at `maps` (paths of proto maps) written `*`, so that a request
 * body compares with the published field lists of test/wire-facts.ts.
 *
 * @example
 * keyPaths({ a: [{ b: 1 }] }); // ["a", "a.*", "a.*.b"]
 */
export function keyPaths(value: unknown, maps: readonly string[] = [], prefix = ""): string[] {
  if (value === null || typeof value !== "object") return [];
  const isMap = Array.isArray(value) || maps.includes(prefix);
  return Object.entries(value).flatMap(([k, v]) => {
    const path = `${prefix === "" ? "" : `${prefix}.`}${isMap ? "*" : k}`;
    return [path, ...keyPaths(v, maps, path)];
  });
}
