import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { getOption, hasOption } from "@bufbuild/protobuf";
import type { KindName } from "pulumi-irv/sdk";
import { EVENTS_OPTION, EventAudience, verbOf } from "../grpc/index.js";

/**
 * The verbs of the service core that write.
 *
 * @example
 * const verb: WriteVerb = "create";
 */
export type WriteVerb = "create" | "update" | "delete";

/**
 * The event a write rpc is annotated with (`chainguard.annotations.events` in the published
 * definitions), with the message its body carries: the returned resource for a create or an update,
 * the request for a delete (as the published `*.event.go` files make them `Eventable`).
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
}

/**
 * Every write rpc's event, read at start-up from the generated descriptors' method options, by the
 * kind and verb the service core runs for it (either transport ends in the same core call).
 *
 * @example
 * const annotations = EventAnnotations.read(API_SERVICES, SERVICE_KINDS);
 * annotations.get("identities", "delete")?.body.typeName; // "chainguard.platform.iam.v2beta1.DeleteIdentityRequest"
 */
export class EventAnnotations {
  private constructor(private readonly byWrite: ReadonlyMap<string, WriteEvent>) {}

  /**
   * Reads the annotations of the services' Create, Update and Delete rpcs. An rpc without the
   * option makes no event.
   *
   * @example
   * EventAnnotations.read(API_SERVICES, SERVICE_KINDS).all().length;
   */
  static read(
    services: readonly DescService[],
    serviceKinds: Readonly<Record<string, KindName>>,
  ): EventAnnotations {
    const byWrite = new Map<string, WriteEvent>();
    for (const service of services) {
      const kind = serviceKinds[service.typeName];
      if (kind === undefined) continue;
      for (const method of service.methods) {
        const verb = /^(Create|Update|Delete)[A-Z]/.test(method.name) ? verbOf(method.name) : undefined;
        if (verb === undefined || !hasOption(method, EVENTS_OPTION)) continue;
        const option = getOption(method, EVENTS_OPTION);
        const k = key(kind, verb.toLowerCase() as WriteVerb);
        // One core write serves both versions of a path (`/iam/v2beta1/…`, `/iam/v2/…`), and the GA
        // files are identical copies: the event names the v2beta1 message, the contract's version.
        if (byWrite.get(k)?.rpc.includes(".v2beta1.") === true) continue;
        byWrite.set(k, {
          rpc: `${service.typeName}.${method.name}`,
          type: option.type,
          extensions: [...option.extensions],
          audience: option.audience === EventAudience.CUSTOMER ? "customer" : "internal",
          body: verb === "Delete" ? method.input : method.output,
        });
      }
    }
    return new EventAnnotations(byWrite);
  }

  /**
   * The event of a write, or undefined when its rpc carries none.
   *
   * @example
   * annotations.get("groups", "update")?.audience; // "customer"
   */
  get(kind: KindName, verb: WriteVerb): WriteEvent | undefined {
    return this.byWrite.get(key(kind, verb));
  }

  /**
   * Every annotated write.
   *
   * @example
   * annotations.all().filter((a) => a.audience === "customer");
   */
  all(): WriteEvent[] {
    return [...this.byWrite.values()];
  }
}

function key(kind: KindName, verb: WriteVerb): string {
  return `${kind} ${verb}`;
}
