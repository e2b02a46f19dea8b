import type { Clock, FaultSpec, RateLimitSpec } from "./core/index.js";
import type { Fixtures } from "./resources/index.js";

/**
 * Options of {@link startEmulator}; every one has a default.
 *
 * @example
 * await startEmulator({ port: 0, data: "state.db", faults: "503=0.1", rateLimit: "50,burst=100", tokenTtlSeconds: 60 });
 */
export interface EmulatorOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string | undefined;
  /** Port; 0 (the default) picks a free one. */
  port?: number | undefined;
  /** SQLite file that keeps state across restarts; in memory when absent. */
  data?: string | undefined;
  /** Fixtures to load into a new database: a file path or the document itself. */
  fixtures?: string | Fixtures | undefined;
  /** The admin token (owner of the root organization). Default: the stored one, else random. */
  adminToken?: string | undefined;
  /** Injected faults, as `--faults` takes them or parsed. Default none. */
  faults?: string | FaultSpec | undefined;
  /** Delay added to every API and STS request, ms: the `latency=` fault (wins over the one in `faults`). */
  latencyMs?: number | undefined;
  /** Per-caller rate limit of the API, as `--rate-limit` takes it (`"50,burst=100"`) or parsed. Default none. */
  rateLimit?: string | RateLimitSpec | undefined;
  /** Lifetime of exchanged API tokens, seconds. Default 3600 (spec §5.4). */
  tokenTtlSeconds?: number | undefined;
  /** Issuers the STS trusts besides the local one (their JWKS is fetched over HTTP). */
  trustedIssuers?: readonly string[] | undefined;
  /** Uid of the root organization for a new database (40 hex). Default random. */
  orgUid?: string | undefined;
  /**
   * Time source in ms (tests move it to expire page tokens): every time the emulator tells or stamps
   * reads it. Waits stay in real time (a webhook sink's rest between attempts), so a clock that stands
   * still stops nothing. Default `Date.now`.
   */
  clock?: Clock | undefined;
  /** Random source of the fault dice. Default `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * TLS certificate (PEM text, or a file holding it) for the one port: with {@link tlsKey} the port
   * speaks TLS only, and ALPN chooses HTTP/2 (gRPC) or HTTP/1.1 (the JSON API). Default: plain TCP.
   */
  tlsCert?: string | undefined;
  /** TLS private key (PEM text, or a file holding it) matching {@link tlsCert}. */
  tlsKey?: string | undefined;
  /**
   * Attempts after the first of a webhook delivery that failed with a 5xx, a 429, a timeout or no
   * connection (0 to 20). Default 5.
   */
  deliveryRetries?: number | undefined;
  /** The longest a webhook delivery's attempt may take, ms (1 to 60000). Default 5000. */
  deliveryTimeoutMs?: number | undefined;
  /** Log requests as JSON lines on stderr. Default: the `IRV_EMULATOR_LOG` environment variable is `1`. */
  log?: boolean | undefined;
}

/**
 * Where the emulator's surfaces live below the base URL (one port for all).
 *
 * @example
 * `${emu.baseUrl}${AUTH_PATH}` === emu.authUrl; // true
 */
export const AUTH_PATH = "/auth";
/**
 * Path of the local OIDC issuer.
 *
 * @example
 * `${emu.baseUrl}${ISSUER_PATH}` === emu.issuerUrl; // true
 */
export const ISSUER_PATH = "/oidc";

/**
 * The URL of a listening address, for clients: a wildcard address becomes loopback, IPv6 gets
 * brackets.
 *
 * @example
 * originOf("0.0.0.0", 8080); // "http://127.0.0.1:8080"
 * originOf("::", 8443, "https"); // "https://[::1]:8443"
 */
export function originOf(host: string, port: number, scheme: "http" | "https" = "http"): string {
  const h = host === "0.0.0.0" || host === "" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `${scheme}://${h.includes(":") ? `[${h}]` : h}:${port}`;
}
