import type * as pulumi from "@pulumi/pulumi";
import type { IrvClient } from "../../sdk/index.js";
import { computeUpdate, deepEqual } from "../../sdk/index.js";
import { diffInputs, unlessSet } from "./diff-inputs.js";
import { reportedOnce } from "./host-echo.js";
import type { KindDefinition, KindEnv, Props } from "./kind-definition.js";
import { setAt, valueAt } from "./props-path.js";
import { DEFAULT_REGISTRY_HOST } from "./registry-host.js";
import { isUnknownAt } from "./unknown.js";

type CheckFailure = pulumi.dynamic.CheckFailure;

/**
 * Builds the dynamic resource provider of one kind: validation at check, a diff that never calls
 * the API, one POST/PATCH/DELETE/GET per operation.
 *
 * @example
 * const provider = makeProvider(groupKind, () => client);
 * await provider.create({ parentUid: org, name: "team-a" });
 */
export function makeProvider<Inputs extends Props, Server extends { uid: string }>(
  kind: KindDefinition<Inputs, Server>,
  client: () => IrvClient,
  explain: (error: unknown) => string | undefined = () => undefined,
  env: KindEnv = { registryHost: DEFAULT_REGISTRY_HOST, now: Date.now },
): Required<Omit<pulumi.dynamic.ResourceProvider, "configure">> {
  const withContext = <T>(what: string, fn: () => Promise<T>) => inContext(what, explain, fn);
  // Two sets of inputs are compared in the kind's own terms (a set in any order is one value).
  const comparable = (p: Props): Props => (kind.comparable ? kind.comparable(p) : p);
  return {
    async check(_olds: Props, news: Props) {
      const result = kind.inputs.safeParse(stripProvider(news));
      const failures: CheckFailure[] = [];
      if (!result.success) {
        for (const issue of result.error.issues) {
          // A value unknown during preview is checked again when it is known.
          if (isUnknownAt(news, issue.path)) continue;
          const property = issue.path.length ? issue.path.map(String).join(".") : "(inputs)";
          // The value itself is never echoed: any input may be a secret, and check() cannot tell. Only
          // rules over values that are never secret name it themselves (a capability: issue 34),
          // and then its shape would only repeat it.
          const got = valueAt(news, issue.path);
          const named = typeof got === "string" && issue.message.includes(JSON.stringify(got));
          failures.push({
            property,
            reason: `${kind.singular} ${property} ${issue.message}${got === undefined || named ? "" : ` (got ${shapeOf(got)})`}`,
          });
        }
      }
      return { inputs: news, failures };
    },

    async diff(_id: string, oldState: Props, newInputs: Props) {
      const { changed, replaces, deleteBeforeReplace } = diffInputs(kind, oldState, newInputs, env);
      if (changed.length === 0) return { changes: false };
      // A replacement no input asked for (a credential about to expire): the engine computes no
      // change from the inputs, so this one says so itself.
      if (replaces.length > 0 && kind.replaceWhen?.(oldState, newInputs, env) !== undefined)
        return { changes: true, replaces, deleteBeforeReplace: false };
      // `changes: undefined` lets the engine compute which keys changed (display, replaceOnChanges);
      // our replaces still apply.
      return { changes: undefined as unknown as boolean, replaces, deleteBeforeReplace };
    },

    async create(inputs: Props) {
      const props = kind.inputs.parse(stripProvider(inputs));
      const server = await withContext(`creating ${kind.singular} ${describe(props)}`, () =>
        kind.create(client(), props, env),
      );
      return { id: server.uid, outs: kind.outputsOf(server, props) };
    },

    async read(id: string, props: Props) {
      const server = await withContext(`reading ${kind.singular} ${id}`, () => kind.get(client(), id));
      // An empty id tells the engine the resource is gone, so refresh drops it from the state.
      if (!server) return { id: "", props: {} };
      const fresh = kind.inputsOf(server);
      const outs = keepWriteOnly(kind.writeOnly, kind.outputsOf(server, fresh), props);
      // Nothing changed since the last write or refresh (most of a refresh): the inputs in the state
      // still describe the object, so none are sent back and the engine keeps its own. That is a
      // whole property map per resource the engine does not decode, compare and log (the CLI logs
      // every property of every provider call to ~/.pulumi/logs).
      if (deepEqual(outs, stripProvider(props))) return { id: server.uid, props: outs };
      return {
        id: server.uid,
        props: outs,
        inputs: { ...keepWriteOnly(kind.writeOnly, fresh, props, true), __provider: props.__provider },
      };
    },

    async update(id: string, olds: Props, news: Props) {
      const desired = kind.inputs.parse(stripProvider(news));
      const patch = computeUpdate(
        present(comparable(unlessSet(kind.defaultedByServer, olds, news)), kind.mutableKeys),
        present(comparable(desired), kind.mutableKeys),
        kind.mutableKeys,
      );
      if (!patch) return { outs: { ...stripProvider(olds), ...desired } };
      const server = await withContext(
        `updating ${kind.singular} ${id} (${patch.updateMask.join(", ")})`,
        () => kind.update(client(), id, patch.body, patch.updateMask, desired),
      );
      // An output only a create knows (a password) is kept from the state: a PATCH never shows it.
      const outs = kind.outputsOf(server, desired);
      for (const path of [...(kind.writeOnly ?? []), ...(kind.keptOnUpdate ?? [])]) {
        const keys = path.split(".");
        if (!kind.inputKeys.includes(keys[0] ?? "") && valueAt(outs, keys) === undefined)
          setAt(outs, keys, valueAt(olds, keys));
      }
      return { outs };
    },

    async delete(id: string, props: Props) {
      await withContext(`deleting ${kind.singular} ${id}`, () => kind.delete(client(), id, props));
    },
  };
}

/**
 * What the API never returns (the kind's `writeOnly` paths) taken from the state, or absent when the
 * state has none either: how a refresh describes an object, and how drift compares one.
 *
 * @example
 * keepWriteOnly(kind.writeOnly, kind.inputsOf(server), stateInputs); // oidc.clientSecret from the state
 */
// With `answered`, the inputs of a resource whose state lacks the value (an import) keep what the
// service did answer in its own form (a sync source or an overlay as the uid it resolved): the code
// `pulumi import` writes from these inputs needs a value (issue 45: it wrote `overlay: ""`). The
// outputs still lack it, so a diff compares it only once a program has set it (a name form stays
// no change).
export function keepWriteOnly(
  paths: readonly string[] = [],
  fresh: Props,
  state: Props,
  answered = false,
): Props {
  // Most kinds have no write-only value: nothing to put back, so no copy (once per refreshed resource).
  if (paths.length === 0) return fresh;
  const out = structuredClone(fresh);
  for (const path of paths) {
    const at = path.split(".");
    const kept = valueAt(state, at);
    const fromService = valueAt(fresh, at);
    if (kept === undefined && answered && fromService !== undefined && fromService !== "") continue;
    setAt(out, at, kept);
  }
  return out;
}

function stripProvider(p: Props): Props {
  const { __provider: _, ...rest } = p;
  return rest;
}

function present(p: Props, keys: readonly string[]): Props {
  const out: Props = {};
  for (const k of keys) if (p[k] !== undefined && p[k] !== "") out[k] = p[k];
  return out;
}

function shapeOf(v: unknown): string {
  if (typeof v === "string") return `a string of ${v.length} characters`;
  if (Array.isArray(v)) return "an array";
  return v === null ? "null" : `a${typeof v === "object" ? "n" : ""} ${typeof v}`;
}

function describe(p: Props): string {
  return typeof p.name === "string" ? JSON.stringify(p.name) : "";
}

/**
 * Runs one API operation; a failure becomes one message saying what we were doing, and why it
 * failed in the user's terms when `explain` knows the cause (URL, cause, config key). The engine
 * shows the message; the stack is emptied and the host's stderr echo dropped, so the user sees the
 * message once and no frames into our files.
 */
async function inContext<T>(
  what: string,
  explain: (error: unknown) => string | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof Error))
      throw reportedOnce(Object.assign(new Error(`${what}: ${String(e)}`), { stack: "" }));
    // Mutated, not wrapped: a partially created resource's `id`/`properties`/`reasons` must survive.
    e.message = `${what}: ${explain(e) ?? e.message}`;
    e.stack = "";
    throw reportedOnce(e);
  }
}
