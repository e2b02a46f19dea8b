import type { z } from "zod";
import type { IrvClient } from "../../sdk/index.js";
import type { StubType } from "../stub/index.js";

/**
 * The plain-JSON state the engine stores (inputs or outputs), before it is parsed.
 *
 * @example
 * const inputs: Props = { parentUid: orgUid, name: "team-a" };
 * await provider.create(inputs);
 */
export type Props = Record<string, unknown>;

/**
 * What a kind may read besides the client: settings that are not credentials, and the clock (the
 * provider machine's; a test moves it for the provider process as a whole).
 *
 * @example
 * const env: KindEnv = { registryHost: "cgr.dev", now: Date.now };
 */
export interface KindEnv {
  /** The registry host pull tokens are for (`irv:registryHost`). */
  registryHost: string;
  now(): number;
}

/**
 * What the generic dynamic provider needs to know about one resource kind, typed by the kind's
 * input schema (`Inputs = z.infer<typeof schema>`) and the sdk's wire type of the resource
 * (`Server`). The provider parses the engine's inputs with `inputs` before calling any method, so
 * a kind works on typed values only; a kind is one file.
 *
 * @example
 * export const groupKind = defineKind({ type: "Group", singular: "group", inputs: GroupInputs, … });
 */
export interface KindDefinition<
  Inputs extends Props = Props,
  Server extends { uid: string } = { uid: string },
> {
  /** Type name in the token `pulumi-nodejs:dynamic/irv:<type>`. */
  type: StubType;
  /** For messages. */
  singular: string;
  /** Validates the inputs at `check` (preview time, before any API call) and types them after. */
  inputs: z.ZodType<Inputs>;
  /** Every input key, in display order. */
  inputKeys: readonly (keyof Inputs & string)[];
  /** Inputs whose change replaces the resource (the API cannot move it). */
  replaceKeys: readonly (keyof Inputs & string)[];
  /**
   * Dotted paths inside a mutable input whose change replaces the resource all the same (an
   * immutable field of a nested message: an identity provider's `oidc.correlationRule`). Compared in
   * the `comparable` form; the input they are in is the replace reason.
   */
  replacePaths?: readonly string[];
  /** Inputs changed in place by PATCH (their names are the API field names). */
  mutableKeys: readonly (keyof Inputs & string)[];
  /**
   * Dotted paths of what the API never returns (a write-only secret, the code only a create
   * answers, an input the server turns into another). Read keeps them from the state; a diff does
   * not compare one the state lacks (after an import nothing can know it).
   */
  writeOnly?: readonly string[];
  /**
   * Outputs an update's answer may lack (a repo's README, read by its own call; the timestamps of a
   * step that sent no PATCH): kept from the state when the answer has none.
   */
  keptOnUpdate?: readonly string[];
  /**
   * Dotted paths the service fills in when the inputs leave them out (a default it computes). A
   * diff compares one only when the new inputs set it, so the filled-in value is no change.
   */
  defaultedByServer?: readonly string[];
  /**
   * The form in which two sets of inputs (or old outputs) are compared, when it is not the inputs
   * as given: a set kept in any order, an input that stands in for another.
   */
  comparable?(props: Props): Props;
  /**
   * What the state holds besides the inputs: the server-assigned fields, as part of the sdk's wire
   * schema (`Group.pick({ uid: true, … })`). The native plugin's schema and its create previews are
   * made from it; the dynamic providers do not need it.
   */
  outputs: z.ZodObject;
  /**
   * Dotted paths of credentials (a client secret, an invite code): always secrets in state, events
   * and the plugin's answers, whether or not the program marked them.
   */
  secrets?: readonly string[];
  /**
   * Whether the resource must be replaced although no input changed (a credential about to
   * expire): the input key to report as the reason, or undefined. Checked at every diff.
   */
  replaceWhen?(state: Props, news: Props, env: KindEnv): string | undefined;
  /** One POST; `find` makes a lost response recoverable without a duplicate. */
  create(client: IrvClient, inputs: Inputs, env: KindEnv): Promise<Server>;
  get(client: IrvClient, uid: string): Promise<Server | undefined>;
  /**
   * One PATCH; `body` and `updateMask` are in input names (a kind maps them when the API's differ).
   * `inputs` are the whole desired inputs, for a kind whose update is not a PATCH (a tag's upsert).
   */
  update(client: IrvClient, uid: string, body: Props, updateMask: string[], inputs: Inputs): Promise<Server>;
  /** `state` are the outputs in state (for messages). */
  delete(client: IrvClient, uid: string, state: Props): Promise<void>;
  /** The inputs that describe a resource as the server has it (refresh and import). */
  inputsOf(server: Server): Inputs;
  /** The outputs stored in state: every input plus the server's fields. */
  outputsOf(server: Server, inputs: Inputs): Props;
}

/**
 * A kind definition with its types erased, as the runtime's table holds them.
 *
 * @example
 * const table: Record<StubType, AnyKind> = { Group: groupKind, … };
 */
// biome-ignore lint/suspicious/noExplicitAny: the table holds kinds of different input types; each is checked where it is defined.
export type AnyKind = KindDefinition<any, any>;

/**
 * Types a kind definition from its schema and wire type (the identity function: it exists so that
 * `Inputs` and `Server` are inferred, not written).
 *
 * @example
 * export const roleKind = defineKind({ type: "Role", inputs: RoleInputs, get: (c, uid) => c.roles.find(uid), … });
 */
export function defineKind<Inputs extends Props, Server extends { uid: string }>(
  kind: KindDefinition<Inputs, Server>,
): KindDefinition<Inputs, Server> {
  return kind;
}
