import type { z } from "zod";
import type { TokenSource } from "../auth/token-source.js";
import { staticToken } from "../auth/token-source.js";
import { ConfigurationError } from "../errors/api-error.js";
import type { AdvisoryListQuery } from "../pagination/list-query.js";
import type { ApiVersion } from "../schemas/kinds.js";
import { KINDS } from "../schemas/kinds.js";
import { MappingClient } from "./mapping-client.js";
import { RepoClient } from "./repo-client.js";
import type { ReadOnlyResourceClient } from "./resource-client.js";
import { ResourceClient } from "./resource-client.js";
import type { TransportOptions } from "./transport.js";
import { HttpTransport } from "./transport.js";

type Out<K extends keyof typeof KINDS> = z.output<(typeof KINDS)[K]["schema"]>;
type In<K extends keyof typeof KINDS> = (typeof KINDS)[K]["create"] extends z.ZodType
  ? z.input<(typeof KINDS)[K]["create"]>
  : never;

/**
 * Options of {@link IrvClient}: the transport's, with credentials given either way.
 *
 * @example
 * const options: IrvClientOptions = {
 *   baseUrl: "http://127.0.0.1:8080",
 *   token: process.env.IRV_TOKEN,
 *   timeoutMs: 10_000,
 * };
 * const client = new IrvClient(options);
 */
export interface IrvClientOptions extends Omit<TransportOptions, "auth"> {
  /** A static API token; shorthand for `auth: staticToken(token)`. */
  token?: string | undefined;
  /** Where tokens come from (static, or an identity exchange). */
  auth?: TokenSource | undefined;
  /**
   * The API version whose paths the client speaks (`irv:apiVersion`, `IRV_API_VERSION`): `v2`, the
   * GA paths, by default. Overlays and overlay bindings stay on v2beta1 either way: they have no GA
   * copy.
   */
  apiVersion?: ApiVersion | undefined;
}

/**
 * The typed client of the IRV v2beta1 API: one property per resource kind.
 *
 * @example
 * import { IrvClient } from "pulumi-irv/sdk";
 * const client = new IrvClient({ baseUrl: "http://127.0.0.1:8080", token: process.env.IRV_TOKEN });
 * const viewer = (await client.roles.list({ name: "viewer" })).items[0];
 * for await (const g of client.groups.listAll({ descendantsOf: orgUid })) console.log(g.uid, g.name);
 */
export class IrvClient {
  readonly transport: HttpTransport;
  readonly groups: ResourceClient<Out<"groups">, In<"groups">>;
  readonly identities: ResourceClient<Out<"identities">, In<"identities">>;
  readonly roles: ResourceClient<Out<"roles">, In<"roles">>;
  readonly roleBindings: ResourceClient<Out<"roleBindings">, In<"roleBindings">>;
  readonly identityProviders: ResourceClient<Out<"identityProviders">, In<"identityProviders">>;
  readonly accountAssociations: ResourceClient<Out<"accountAssociations">, In<"accountAssociations">>;
  readonly groupInvites: ResourceClient<Out<"groupInvites">, In<"groupInvites">>;
  readonly externalGroupRoleMappings: MappingClient;
  readonly repos: RepoClient;
  readonly tags: ResourceClient<Out<"tags">, In<"tags">>;
  readonly overlays: ResourceClient<Out<"overlays">, In<"overlays">>;
  readonly overlayBindings: ResourceClient<Out<"overlayBindings">, In<"overlayBindings">>;
  readonly subscriptions: ResourceClient<Out<"subscriptions">, In<"subscriptions">>;
  /** The API version the client speaks. */
  readonly apiVersion: ApiVersion;
  /** Filters by `advisoryIds` and `aliases`; advisories have no `name` (see {@link AdvisoryListQuery}). */
  readonly advisories: ReadOnlyResourceClient<Out<"advisories">, AdvisoryListQuery>;

  constructor(options: IrvClientOptions) {
    if (!options.baseUrl)
      throw new ConfigurationError("the API base URL is required (irv:baseUrl or IRV_BASE_URL)");
    try {
      new URL(options.baseUrl);
    } catch {
      throw new ConfigurationError(
        `the API base URL is not a URL: ${JSON.stringify(options.baseUrl)} (irv:baseUrl or IRV_BASE_URL)`,
      );
    }
    const auth = options.auth ?? (options.token ? staticToken(options.token) : undefined);
    if (!auth)
      throw new ConfigurationError(
        "no credentials: set irv:token (IRV_TOKEN), or irv:identity with irv:identityToken/irv:identityTokenFile",
      );
    const { token: _token, auth: _auth, apiVersion: _apiVersion, ...transport } = options;
    this.apiVersion = options.apiVersion ?? "v2";
    const v = this.apiVersion;
    this.transport = new HttpTransport({ ...transport, auth, userAgent: options.userAgent ?? "pulumi-irv" });
    const t = this.transport;
    this.groups = new ResourceClient(t, KINDS.groups, v);
    this.identities = new ResourceClient(t, KINDS.identities, v);
    this.roles = new ResourceClient(t, KINDS.roles, v);
    this.roleBindings = new ResourceClient(t, KINDS.roleBindings, v);
    this.identityProviders = new ResourceClient(t, KINDS.identityProviders, v);
    this.accountAssociations = new ResourceClient(t, KINDS.accountAssociations, v);
    this.groupInvites = new ResourceClient(t, KINDS.groupInvites, v);
    this.externalGroupRoleMappings = new MappingClient(t, KINDS.externalGroupRoleMappings, v);
    this.repos = new RepoClient(t, KINDS.repos, v);
    this.tags = new ResourceClient(t, KINDS.tags, v);
    this.overlays = new ResourceClient(t, KINDS.overlays, v);
    this.overlayBindings = new ResourceClient(t, KINDS.overlayBindings, v);
    this.subscriptions = new ResourceClient(t, KINDS.subscriptions, v);
    this.advisories = new ResourceClient(t, KINDS.advisories, v);
  }

  /**
   * Closes pooled connections.
   *
   * @example
   * await client.close();
   */
  close(): Promise<void> {
    return this.transport.close();
  }
}
