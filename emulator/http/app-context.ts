import type { ApiTokens, LocalIssuer, TokenExchange } from "../auth/index.js";
import type { ResourceService } from "../resources/index.js";
import type { FaultInjector } from "./fault-injector.js";
import type { RateLimiter } from "./rate-limiter.js";
import type { RequestStats } from "./request-stats.js";

/**
 * The token services; they need the server's URLs, hence the port, so they exist once it listens.
 *
 * @example
 * ctx.attachAuth({ apiTokens, sts, issuer: new LocalIssuer(issuerKey, issuerUrl, authUrl, clock) });
 */
export interface AuthServices {
  apiTokens: ApiTokens;
  sts: TokenExchange;
  issuer: LocalIssuer;
}

/**
 * The webhook deliveries as the control API shows them (`GET /_emulator/deliveries`).
 *
 * @example
 * ctx.deliveries.list({ outcome: "accepted" });
 */
export interface DeliveryListing {
  list(filter: {
    type?: string | undefined;
    subscription?: string | undefined;
    outcome?: string | undefined;
  }): readonly object[];
}

/**
 * Everything the routes use.
 *
 * @example
 * const ctx: AppContext = createAppContext({
 *   service,
 *   stats,
 *   faults,
 *   rateLimiter: new RateLimiter(),
 *   authPath: "/auth",
 *   issuerPath: "/oidc",
 *   deliveries,
 *   log: false,
 * });
 * const app = buildApp(ctx);
 */
export interface AppContext {
  service: ResourceService;
  stats: RequestStats;
  faults: FaultInjector;
  /** The per-caller rate limit of the API (none by default). */
  rateLimiter: RateLimiter;
  /** Path of the auth URL (`/auth`): the STS lives below it. */
  authPath: string;
  /** Path of the issuer URL (`/oidc`). */
  issuerPath: string;
  /** The token services (set right after listen, before the first request is read). */
  readonly auth: AuthServices;
  /** The webhook deliveries of the run. */
  deliveries: DeliveryListing;
  /** Whether to log requests (to stderr). */
  log: boolean;
  /**
   * The emulator's time in ms (its `clock` option). Optional: without it every answer's `Date`
   * header is Node's, the real time.
   */
  clock?: (() => number) | undefined;
}

/**
 * A context whose token services are attached later with {@link attachAuth}.
 *
 * @example
 * const ctx = createAppContext({ service, stats, faults, rateLimiter, authPath: "/auth", issuerPath: "/oidc", deliveries, log: false });
 */
export function createAppContext(
  parts: Omit<AppContext, "auth">,
): AppContext & { attachAuth(a: AuthServices): void } {
  let auth: AuthServices | undefined;
  return {
    ...parts,
    get auth(): AuthServices {
      if (auth === undefined) throw new Error("the emulator is not listening yet");
      return auth;
    },
    attachAuth(a: AuthServices) {
      auth = a;
    },
  };
}
