import type { z } from "zod";
import type { IrvClient } from "../../sdk/index.js";
import type { StubType } from "../stub/index.js";

/**
 * The plain-JSON state the engine stores (inputs or outputs).
 *
 * @example
 * const inputs: Props = { parentUid: orgUid, name: "team-a" };
 * const created = await groupKind.create(client, inputs);
 */
export type Props = Record<string, unknown>;

/**
 * What the generic dynamic provider needs to know about one resource kind.
 *
 * @example
 * const groupKind: KindDefinition = { type: "Group", singular: "group", inputs: GroupInputs, … };
 */
export interface KindDefinition {
  /** Type name in the token `pulumi-nodejs:dynamic/irv:<type>`. */
  type: StubType;
  /** For messages. */
  singular: string;
  /** Validates the inputs at `check` (preview time, before any API call). */
  inputs: z.ZodType;
  /** Every input key, in display order. */
  inputKeys: readonly string[];
  /** Inputs whose change replaces the resource (the API cannot move it). */
  replaceKeys: readonly string[];
  /** Inputs changed in place by PATCH (their names are the API field names). */
  mutableKeys: readonly string[];
  /** One POST; `find` makes a lost response recoverable without a duplicate. */
  create(client: IrvClient, inputs: Props): Promise<{ uid: string } & Record<string, unknown>>;
  get(client: IrvClient, uid: string): Promise<({ uid: string } & Record<string, unknown>) | undefined>;
  update(
    client: IrvClient,
    uid: string,
    body: Props,
    updateMask: string[],
  ): Promise<{ uid: string } & Record<string, unknown>>;
  delete(client: IrvClient, uid: string, props: Props): Promise<void>;
  /** The inputs that describe a resource as the server has it (refresh and import). */
  inputsOf(server: Record<string, unknown>): Props;
  /** The outputs stored in state: every input plus the server's fields. */
  outputsOf(server: Record<string, unknown>, inputs: Props): Props;
}
