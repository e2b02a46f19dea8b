import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { getOption, hasOption } from "@bufbuild/protobuf";
import { EmptySchema } from "@bufbuild/protobuf/wkt";
import type { KindName } from "pulumi-irv/sdk";
import { EVENTS_OPTION, EventAudience } from "../grpc/index.js";

/**
 * The verbs of the service core that write.
 *
 * @example
 * const verb: WriteVerb = "create";
 */
export type WriteVerb = "create" | "update" | "delete";

/**
 * The event a write rpc is annotated with (`chainguard.annotations.events` in the published
 * definitions), with the message its body carries: what the published `*.event.go` files make
 * `Eventable`, which is the rpc's answer (a created or updated resource, a readme, the batch
 * delete's response), or its request when the answer is `Empty` (a delete).
 *
 * @example
 * const a: WriteEvent = annotations.get("groups", "create")!;
 * a.type; // "dev.chainguard.api.iam.group.created.v1"
 */
export interface WriteEvent {
  /** The rpc's full name, e.g. `chainguard.platform.iam.v2beta1.GroupsService.CreateGroup`. */
  rpc: string;
  /** The CloudEvent type. */
  type: string;
  /** The extension attributes the annotation names (`group`, `identityprovider`). */
  extensions: readonly string[];
  /** Only `customer` events leave the platform. */
  audience: "internal" | "customer";
  /** The message of the body (its full name is the `bodytype` extension). */
  body: DescMessage;
  /** Whether the body is the rpc's request (its answer is `Empty`) rather than its answer. */
  bodyIsRequest: boolean;
}

/**
 * Every annotated rpc's event, read at start-up from the generated descriptors' method options:
 * whichever rpc carries the option, by the kind its service serves and the rpc's method name (either
 * transport ends in the same service-core call, which names the rpc it ran).
 *
 * @example
 * const annotations = EventAnnotations.read(API_SERVICES, SERVICE_KINDS);
 * annotations.get("identities", "delete")?.body.typeName; // "chainguard.platform.iam.v2beta1.DeleteIdentityRequest"
 * annotations.get("repos", "update", "UpdateRepoReadme")?.body.typeName; // "chainguard.platform.registry.v2beta1.RepoReadme"
 */
export class EventAnnotations {
  private constructor(
    private readonly byRpc: ReadonlyMap<string, WriteEvent>,
    private readonly resourceOf: ReadonlyMap<KindName, string>,
  ) {}

  /**
   * Reads the annotation of every rpc of the services that serve a kind. An rpc without the option
   * makes no event.
   *
   * @example
   * EventAnnotations.read(API_SERVICES, SERVICE_KINDS).all().length;
   */
  static read(
    services: readonly DescService[],
    serviceKinds: Readonly<Record<string, KindName>>,
  ): EventAnnotations {
    const byRpc = new Map<string, WriteEvent>();
    const resourceOf = new Map<KindName, string>();
    for (const service of services) {
      const kind = serviceKinds[service.typeName];
      if (kind === undefined) continue;
      const resource = resourceMessage(service);
      if (resource !== undefined && !resourceOf.has(kind)) resourceOf.set(kind, resource);
      for (const method of service.methods) {
        if (!hasOption(method, EVENTS_OPTION)) continue;
        const option = getOption(method, EVENTS_OPTION);
        const k = key(kind, method.name);
        // One core write serves both versions of a path (`/iam/v2beta1/…`, `/iam/v2/…`), and the GA
        // files are identical copies: the event names the v2beta1 message, the contract's version.
        if (byRpc.get(k)?.rpc.includes(".v2beta1.") === true) continue;
        const bodyIsRequest = method.output.typeName === EmptySchema.typeName;
        byRpc.set(k, {
          rpc: `${service.typeName}.${method.name}`,
          type: option.type,
          extensions: [...option.extensions],
          audience: option.audience === EventAudience.CUSTOMER ? "customer" : "internal",
          body: bodyIsRequest ? method.input : method.output,
          bodyIsRequest,
        });
      }
    }
    return new EventAnnotations(byRpc, resourceOf);
  }

  /**
   * The event of a write, or undefined when its rpc carries none: the rpc named, or else the kind's
   * own rpc of the verb (`Create<resource>`…).
   *
   * @example
   * annotations.get("groups", "update")?.audience; // "customer"
   * annotations.get("externalGroupRoleMappings", "delete", "BatchDeleteExternalGroupRoleMappings")?.type;
   */
  get(kind: KindName, verb: WriteVerb, rpc?: string): WriteEvent | undefined {
    const name = rpc ?? this.rpcOf(kind, verb);
    return name === undefined ? undefined : this.byRpc.get(key(kind, name));
  }

  // The method name of a kind's own rpc of a verb (`roleBindings`, `update` → `UpdateRoleBinding`).
  private rpcOf(kind: KindName, verb: WriteVerb): string | undefined {
    const resource = this.resourceOf.get(kind);
    return resource === undefined ? undefined : `${verb[0]?.toUpperCase()}${verb.slice(1)}${resource}`;
  }

  /**
   * Every annotated rpc.
   *
   * @example
   * annotations.all().filter((a) => a.audience === "customer");
   */
  all(): WriteEvent[] {
    return [...this.byRpc.values()];
  }
}

// The kind's own message, which its List pages (`ListGroupsResponse.items` → `Group`): its writes are
// `Create<it>`, `Update<it>`, `Delete<it>`. (Its Get is no guide: `GetRepoReadme` answers a readme.)
function resourceMessage(service: DescService): string | undefined {
  const list = service.methods.find((m) => /^List[A-Z]/.test(m.name));
  return list?.output.fields.find((f) => f.fieldKind === "list" && f.listKind === "message")?.message?.name;
}

function key(kind: KindName, rpc: string): string {
  return `${kind} ${rpc}`;
}
