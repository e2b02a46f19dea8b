import type { IrvClient } from "../../sdk/index.js";
import type { IrvSettings } from "../config/index.js";
import { clientFor, explainFailure, resolveSettings, SETTINGS } from "../config/index.js";
import { dataSourceTable, lazyClient } from "../data-sources/index.js";
import type { AnyKind, Props } from "../runtime/index.js";
import { diffInputs, KIND_DEFINITIONS, kindEnvOf, makeProvider, UNKNOWN } from "../runtime/index.js";
import type { StubType } from "../stub/index.js";
import "./lookups.js";
import { functionToken, PACKAGE, resourceTypesByToken } from "./type-tokens.js";

/**
 * One property of a detailed diff: whether it is added, deleted or updated, and whether that
 * replaces the resource.
 *
 * @example
 * const d: PropertyChange = { kind: "update", replace: false };
 */
export interface PropertyChange {
  kind: "add" | "delete" | "update";
  replace: boolean;
}

/**
 * The answer of a diff, with one entry per changed input for `pulumi preview --diff`.
 *
 * @example
 * const { changed, replaces, detailed } = provider.diff("irv:iam:Group", olds, news);
 */
export interface NativeDiff {
  changed: string[];
  replaces: string[];
  /** The old resource goes before its replacement is made (it keeps a name a sibling may not share). */
  deleteBeforeReplace: boolean;
  detailed: Record<string, PropertyChange>;
}

/**
 * A check failure: the property and why, in the user's terms.
 *
 * @example
 * const f: NativeCheckFailure = { property: "name", reason: "group name must match …" };
 */
export interface NativeCheckFailure {
  property: string;
  reason: string;
}

/**
 * The native plugin's provider on plain values (secrets already taken out by the gRPC layer): every
 * operation is the kind table's, through the same generic provider the dynamic providers use, so
 * the two front ends cannot behave differently. One instance per plugin process (the engine starts
 * one process per provider: the default one and each `irv:index:Provider`). It serves the resource
 * tokens it is given: the running plugin's come from its schema.
 *
 * @example
 * const provider = new NativeProvider(Object.keys(JSON.parse(schema).resources));
 * provider.configure({ baseUrl: "http://127.0.0.1:8080", token: "…" });
 * const { id, outs } = await provider.create("irv:iam:Group", { parentUid: org, name: "platform" }, false);
 */
export class NativeProvider {
  #settings: IrvSettings = resolveSettings(() => undefined);
  #providers = new Map<StubType, ReturnType<typeof makeProvider>>();
  readonly #types: ReadonlyMap<string, StubType>;

  constructor(resourceTokens: Iterable<string>) {
    this.#types = resourceTypesByToken(resourceTokens);
  }

  /**
   * Takes the provider's configuration: keys without the namespace (`baseUrl`, `token`) as the
   * engine sends them, each falling back to its `IRV_*` variable like the dynamic providers.
   */
  configure(config: Props, env: NodeJS.ProcessEnv = process.env): void {
    this.#settings = resolveSettings((key) => settingValue(config[key.slice(PACKAGE.length + 1)]), env);
    this.#providers.clear();
  }

  /** Unknown configuration keys (a typo such as `irv:baseURL`) fail before anything is called. */
  checkConfig(news: Props): NativeCheckFailure[] {
    const known = new Set<string>(Object.values(SETTINGS).map((s) => s.config.slice(PACKAGE.length + 1)));
    return Object.keys(news)
      .filter((k) => k !== "version" && !known.has(k))
      .map((k) => ({
        property: k,
        reason: `${PACKAGE}:${k} is not a setting of the irv provider (known: ${[...known].join(", ")})`,
      }));
  }

  /** The kind of a resource token (a token that is not ours is a clear error). */
  kind(token: string): AnyKind {
    const type = this.#types.get(token);
    if (!type) throw new Error(`pulumi-resource-irv: unknown resource type ${JSON.stringify(token)}`);
    return KIND_DEFINITIONS[type];
  }

  /**
   * Checks the inputs before any call; a kind with a `name` input gets the resource's logical name
   * when the program gives none (as the TypeScript classes do).
   */
  async check(
    token: string,
    logicalName: string,
    news: Props,
  ): Promise<{ inputs: Props; failures: NativeCheckFailure[] }> {
    const kind = this.kind(token);
    const inputs =
      kind.inputKeys.includes("name") && news.name === undefined ? { ...news, name: logicalName } : news;
    const { failures = [] } = await this.#provider(token).check({}, inputs);
    return { inputs, failures: failures.map((f) => ({ property: String(f.property), reason: f.reason })) };
  }

  /** What changed, computed from the state without calling the API. */
  diff(token: string, olds: Props, news: Props): NativeDiff {
    const { changed, replaces, deleteBeforeReplace } = diffInputs(
      this.kind(token),
      olds,
      news,
      kindEnvOf(this.#settings),
    );
    const detailed: Record<string, PropertyChange> = {};
    for (const key of changed)
      detailed[key] = {
        kind: olds[key] === undefined ? "add" : news[key] === undefined ? "delete" : "update",
        replace: replaces.includes(key),
      };
    return { changed, replaces, deleteBeforeReplace, detailed };
  }

  /**
   * One POST; in a preview, the inputs with every server-assigned output unknown (nothing is
   * called).
   */
  async create(token: string, inputs: Props, preview: boolean): Promise<{ id: string; outs: Props }> {
    if (preview) {
      const unknowns = Object.fromEntries(
        Object.keys(this.kind(token).outputs.shape).map((k) => [k, UNKNOWN]),
      );
      return { id: "", outs: { ...unknowns, ...inputs } };
    }
    const { id, outs } = await this.#provider(token).create(inputs);
    return { id, outs: outs ?? {} };
  }

  /** One GET: the resource as the server has it (`id` empty when it is gone). */
  async read(token: string, id: string, state: Props): Promise<{ id: string; outs: Props; inputs?: Props }> {
    const read = await this.#provider(token).read(id, state);
    const { __provider: _, ...inputs } = read.inputs ?? {};
    return { id: read.id ?? "", outs: read.props ?? {}, ...(read.inputs ? { inputs } : {}) };
  }

  /**
   * One PATCH of the changed fields; in a preview, the state with the new inputs over it: the
   * server-assigned outputs (the uid) stay known, so nothing downstream previews a phantom change.
   */
  async update(token: string, id: string, olds: Props, news: Props, preview: boolean): Promise<Props> {
    if (preview) return { ...olds, ...news };
    const { outs } = await this.#provider(token).update(id, olds, news);
    return outs ?? {};
  }

  /** One DELETE (a group with children is an ordering error naming them). */
  async delete(token: string, id: string, state: Props): Promise<void> {
    await this.#provider(token).delete(id, state);
  }

  /** A lookup (`irv:iam:getRoles`, …) with this provider's settings. */
  async invoke(token: string, args: Props): Promise<Props> {
    const entry = [...dataSourceTable()].find(([name]) => functionToken(name) === token);
    if (!entry) throw new Error(`pulumi-resource-irv: unknown function ${JSON.stringify(token)}`);
    const [name, read] = entry;
    try {
      return (await read(
        lazyClient(() => this.#client()),
        args as never,
      )) as Props;
    } catch (e) {
      const why = explainFailure(e, this.#settings) ?? (e instanceof Error ? e.message : String(e));
      throw new Error(`${name} failed: ${why}`);
    }
  }

  #client(): IrvClient {
    return clientFor(this.#settings);
  }

  #provider(token: string): ReturnType<typeof makeProvider> {
    const kind = this.kind(token);
    const type = kind.type;
    let provider = this.#providers.get(type);
    if (!provider) {
      provider = makeProvider(
        kind,
        () => this.#client(),
        (e) => explainFailure(e, this.#settings),
        kindEnvOf(this.#settings),
      );
      this.#providers.set(type, provider);
    }
    return provider;
  }
}

// Configuration arrives typed (a number for `maxRetries`); the settings are strings, as stack config is.
function settingValue(v: unknown): string | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}
