import { deepEqual } from "../../sdk/index.js";
import type { KindDefinition, KindEnv, Props } from "./kind-definition.js";
import { setAt, valueAt } from "./props-path.js";
import { UNKNOWN } from "./unknown.js";

/**
 * What changed between the state and the new inputs, without calling the API: the input keys that
 * differ (an unknown value counts as a change), those of them that replace the resource, and
 * whether the old one must go first: a replacement forced only by an immutable nested field
 * (`replacePaths`) keeps the parent and the name, which a sibling may not share, so the new one
 * cannot be made beside it. Both front ends use it: the dynamic providers and the native plugin's
 * detailed diff.
 *
 * @example
 * diffInputs(groupKind, { parentUid: org, name: "a" }, { parentUid: org, name: "b" });
 * // { changed: ["name"], replaces: [], deleteBeforeReplace: false }
 */
export function diffInputs(
  // biome-ignore lint/suspicious/noExplicitAny: any kind's inputs; only its key lists are read.
  kind: KindDefinition<any, any>,
  oldState: Props,
  newInputs: Props,
  env?: KindEnv,
): { changed: string[]; replaces: string[]; deleteBeforeReplace: boolean } {
  const forced = env && kind.replaceWhen?.(oldState, newInputs, env);
  // Two sets of inputs are compared in the kind's own terms (a set in any order is one value).
  const comparable = (p: Props): Props => (kind.comparable ? kind.comparable(p) : p);
  const olds = comparable(unlessSet(kind.defaultedByServer, oldState, newInputs));
  const news = comparable(unlessUnknown(kind.writeOnly, newInputs, oldState));
  const changed: string[] = kind.inputKeys.filter(
    (k: string) => news[k] === UNKNOWN || !sameInput(olds[k], news[k]),
  );
  const replaces = changed.filter(
    (k) =>
      kind.replaceKeys.includes(k) ||
      (kind.replacePaths ?? []).some((p: string) => {
        const path = p.split(".");
        if (path[0] !== k) return false;
        const next = valueAt(news, path);
        return next === UNKNOWN || !sameInput(valueAt(olds, path), next);
      }),
  );
  if (forced !== undefined) {
    if (!changed.includes(forced)) changed.push(forced);
    if (!replaces.includes(forced)) replaces.push(forced);
  }
  const deleteBeforeReplace =
    replaces.length > 0 &&
    !changed.includes("name") &&
    replaces.every((k) => !kind.replaceKeys.includes(k) && k !== forced);
  return { changed, replaces, deleteBeforeReplace };
}

/**
 * The state without the values the service filled in (`defaultedByServer`) that the new inputs
 * still leave out: those are no change, to a diff or to an update's mask.
 *
 * @example
 * unlessSet(["staticKeys.expirationTime"], state, news);
 */
export function unlessSet(paths: readonly string[] = [], state: Props, news: Props): Props {
  // Only what the state holds needs taking out: an identity of any variant but static keys has no
  // expiration time, so a refresh's diff of it (every identity, every refresh) copies nothing.
  const unset = paths.filter((p) => {
    const path = p.split(".");
    return valueAt(news, path) === undefined && valueAt(state, path) !== undefined;
  });
  if (unset.length === 0) return state;
  const out = structuredClone(state);
  for (const path of unset) setAt(out, path.split("."), undefined);
  return out;
}

// A write-only value the state lacks (imported) cannot be compared: take the declared one as it.
function unlessUnknown(paths: readonly string[] = [], news: Props, state: Props): Props {
  if (paths.length === 0) return news;
  const out = structuredClone(news);
  for (const path of paths)
    if (valueAt(state, path.split(".")) === undefined) setAt(out, path.split("."), undefined);
  return out;
}

// Absent and empty mean the same for optional strings: the API omits an empty description.
function sameInput(a: unknown, b: unknown): boolean {
  return deepEqual(a === "" ? undefined : a, b === "" ? undefined : b);
}
