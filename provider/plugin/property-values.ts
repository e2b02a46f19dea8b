import type { Props } from "../runtime/index.js";

/** The key and value that mark a secret in a property map the engine sends and accepts. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/**
 * A property map with its secrets taken out: the plain values the kind table works on, and the
 * dotted paths that were secrets, so that the answer can mark them again.
 *
 * @example
 * const { values, secrets } = unwrapSecrets(struct.toJavaScript());
 */
export interface Unwrapped {
  values: Props;
  secrets: string[];
}

/**
 * Takes the secret markers out of a property map the engine sent (`Struct.toJavaScript()`).
 *
 * @example
 * unwrapSecrets({ token: { [SIG_KEY]: SECRET_SIG, value: "t" } }); // { values: { token: "t" }, secrets: ["token"] }
 */
export function unwrapSecrets(props: Props | undefined): Unwrapped {
  const secrets: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}.${i}`));
    if (typeof v !== "object" || v === null) return v;
    const o = v as Props;
    if (o[SIG_KEY] === SECRET_SIG) {
      secrets.push(path);
      return walk(o.value, path);
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x, path ? `${path}.${k}` : k)]));
  };
  const values = walk(props ?? {}, "") as Props;
  return { values, secrets };
}

/**
 * Marks the values at the given dotted paths as secrets, for the engine (paths absent from `props`
 * are skipped: a secret that is not there has nothing to hide).
 *
 * @example
 * wrapSecrets({ code: "abc", uid: "…" }, ["code"]); // { code: { [SIG_KEY]: SECRET_SIG, value: "abc" }, uid: "…" }
 */
export function wrapSecrets(props: Props, paths: readonly string[]): Props {
  if (paths.length === 0) return props;
  const out = structuredClone(props);
  // Shallowest first: a secret object that also holds a secret field is wrapped once, at the top.
  const sorted = [...new Set(paths)].sort((a, b) => a.split(".").length - b.split(".").length);
  const done: string[] = [];
  for (const path of sorted) {
    if (done.some((d) => path === d || path.startsWith(`${d}.`))) continue;
    const keys = path.split(".");
    const last = keys.pop() ?? "";
    let parent: unknown = out;
    for (const k of keys)
      parent = typeof parent === "object" && parent !== null ? (parent as Props)[k] : undefined;
    if (typeof parent !== "object" || parent === null || !(last in parent)) continue;
    const holder = parent as Props;
    holder[last] = { [SIG_KEY]: SECRET_SIG, value: holder[last] };
    done.push(path);
  }
  return out;
}

/**
 * Whether a value is a secret marker (what `wrapSecrets` puts in place of a secret).
 *
 * @example
 * isSecretValue(wrapSecrets({ a: 1 }, ["a"]).a); // true
 */
export function isSecretValue(v: unknown): boolean {
  return typeof v === "object" && v !== null && (v as Props)[SIG_KEY] === SECRET_SIG;
}
