import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { formatZodIssues } from "pulumi-irv/sdk";
import type { WorkloadTokenRequest } from "./auth/index.js";
import {
  ApiTokens,
  LocalIssuer,
  loadOrCreateSigningKey,
  MAX_TOKEN_TTL_SECONDS,
  TokenExchange,
  TTL_RULE,
} from "./auth/index.js";
import type { FaultSpec, RateLimitSpec } from "./core/index.js";
import { NO_FAULTS, parseFaultSpec, parseRateLimit, ROOT_UID_PATTERN } from "./core/index.js";
import type { DeliveryFilter, DeliveryPolicy, DeliveryRecord } from "./events/index.js";
import {
  Deliveries,
  EventAnnotations,
  MAX_DELIVERY_RETRIES,
  MAX_DELIVERY_TIMEOUT_MS,
  storedSubscriptions,
} from "./events/index.js";
import {
  API_SERVICES,
  attachProtocolDispatch,
  createGrpcServer,
  SERVICE_KINDS,
  WIRE_REGISTRY,
} from "./grpc/index.js";
import type { StatsSnapshot, TlsFiles } from "./http/index.js";
import { buildApp, createAppContext, FaultInjector, RateLimiter, RequestStats } from "./http/index.js";
import { PageTokens } from "./lists/index.js";
import type { EmulatorOptions } from "./options.js";
import { AUTH_PATH, ISSUER_PATH, originOf } from "./options.js";
import type { SeedCounts } from "./resources/index.js";
import { Fixtures, loadFixtures, ResourceService } from "./resources/index.js";
import { Database } from "./store/index.js";

/**
 * What the CLI prints as its ready line.
 *
 * @example
 * const info: ReadyInfo = JSON.parse(firstStdoutLine);
 */
export interface ReadyInfo {
  baseUrl: string;
  authUrl: string;
  issuerUrl: string;
  orgUid: string;
  adminToken: string;
}

/**
 * A running emulator.
 *
 * @example
 * const emu: EmulatorHandle = await startEmulator();
 * emu.setFaults("503=1");
 * await emu.close();
 */
export interface EmulatorHandle extends ReadyInfo {
  /**
   * Where gRPC clients dial: the `host:port` of {@link ReadyInfo.baseUrl} (one port serves both), in
   * plain text (h2c) unless the emulator was started with TLS.
   */
  grpcTarget: string;
  /** Stops listening, closes connections and the database. */
  close(): Promise<void>;
  /** Replaces the injected faults (`"503=1"`, `"none"` or a parsed spec); returns the spec in force. */
  setFaults(spec: string | FaultSpec): FaultSpec;
  /**
   * Replaces the per-caller rate limit (`"50,burst=100"`, `"none"`, a parsed spec or undefined);
   * every caller starts with a full bucket. Returns the limit in force.
   */
  setRateLimit(spec: string | RateLimitSpec | undefined): RateLimitSpec | undefined;
  /** The request counters (as `GET /_emulator/stats`). */
  stats(): StatsSnapshot;
  /** Zeroes the request counters. */
  resetStats(): void;
  /** Loads fixtures (the `--fixtures` format) in one transaction; returns counts per kind. */
  seed(fixtures: Fixtures): SeedCounts;
  /** A workload token of the local issuer (as `POST {issuerUrl}/token`). */
  mintIdentityToken(request: WorkloadTokenRequest): Promise<string>;
  /** An API token for an identity without the exchange (for tests of other things). */
  mintApiToken(identityUid: string): Promise<string>;
  /** The webhook deliveries so far, oldest first (as `GET /_emulator/deliveries`). */
  deliveries(filter?: DeliveryFilter): DeliveryRecord[];
}

/**
 * Starts the IRV v2beta1 emulator: one HTTP server with the API under its base URL, the STS under
 * `{baseUrl}/auth`, a local OIDC issuer under `{baseUrl}/oidc` and the control API under
 * `/_emulator`. Resolves once it listens.
 *
 * @example
 * const emu = await startEmulator({ port: 0 });
 * const res = await fetch(`${emu.baseUrl}/iam/v2beta1/groups`, { headers: { authorization: `Bearer ${emu.adminToken}` } });
 * await emu.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const clock = options.clock ?? Date.now;
  const ttl = options.tokenTtlSeconds ?? 3600;
  if (!Number.isInteger(ttl) || ttl <= 0 || ttl > MAX_TOKEN_TTL_SECONDS)
    throw new Error(`tokenTtlSeconds ${TTL_RULE}, got ${ttl}`);
  if (options.orgUid !== undefined && !ROOT_UID_PATTERN.test(options.orgUid)) {
    throw new Error(`orgUid must be 40 lowercase hex digits, got ${JSON.stringify(options.orgUid)}`);
  }
  let faultSpec: FaultSpec =
    options.faults === undefined
      ? NO_FAULTS
      : typeof options.faults === "string"
        ? parseFaultSpec(options.faults)
        : options.faults;
  if (options.latencyMs !== undefined) {
    if (!(options.latencyMs >= 0)) throw new Error(`latencyMs must be 0 or more, got ${options.latencyMs}`);
    faultSpec = { ...faultSpec, latencyMs: options.latencyMs };
  }
  const rateLimit = rateLimitOf(options.rateLimit);
  const deliveryPolicy = deliveryPolicyOf(options);
  const tls = tlsOf(options.tlsCert, options.tlsKey);
  const fixtures = readFixtures(options.fixtures);

  const db = new Database(options.data);
  try {
    const secret = db.getMeta("pageTokenSecret") ?? randomBytes(32).toString("base64url");
    const adminToken =
      options.adminToken ?? db.getMeta("adminToken") ?? `irv-admin-${randomBytes(24).toString("base64url")}`;
    db.transaction(() => {
      db.setMeta("pageTokenSecret", secret);
      db.setMeta("adminToken", adminToken);
    });
    const pageTokens = new PageTokens(Buffer.from(secret, "base64url"), clock);
    const service = new ResourceService({ db, clock, pageTokens, orgUid: options.orgUid });
    const apiKey = await loadOrCreateSigningKey(db, "apiSigningKey");
    const issuerKey = await loadOrCreateSigningKey(db, "issuerSigningKey");
    // Fixtures describe the initial state: a database that already has one keeps it.
    if (fixtures !== undefined && db.fresh) loadFixtures(service, fixtures);

    const stats = new RequestStats();
    const faults = new FaultInjector(faultSpec, options.random);
    const rateLimiter = new RateLimiter(rateLimit, { onRefused: () => stats.recordRateLimited() });
    let baseUrl = "";
    const deliveries = new Deliveries({
      annotations: EventAnnotations.read(API_SERVICES, SERVICE_KINDS),
      subscriptions: storedSubscriptions(service.table),
      registry: WIRE_REGISTRY,
      source: () => baseUrl,
      mint: (request) => ctx.auth.issuer.mint(request),
      clock,
      policy: deliveryPolicy,
      onCount: (count) => stats.recordDelivery(count),
    });
    service.onWrite((write) => deliveries.written(write));
    const ctx = createAppContext({
      service,
      stats,
      faults,
      rateLimiter,
      authPath: AUTH_PATH,
      issuerPath: ISSUER_PATH,
      deliveries: deliveries.log,
      log: options.log ?? process.env.IRV_EMULATOR_LOG === "1",
      clock,
    });
    const app = buildApp(ctx, tls);
    // One port, two transports: HTTP/1.1 JSON and gRPC (HTTP/2), told apart per connection.
    const h2 = createGrpcServer(ctx, (req, res) => app.routing(req as never, res as never));
    const dispatch = attachProtocolDispatch(app.server, h2, tls !== undefined);
    await app.listen({ host: options.host ?? "127.0.0.1", port: options.port ?? 0 });
    const address = app.server.address() as AddressInfo;
    baseUrl = originOf(address.address, address.port, tls === undefined ? "http" : "https");
    const authUrl = `${baseUrl}${AUTH_PATH}`;
    const issuerUrl = `${baseUrl}${ISSUER_PATH}`;
    const apiTokens = new ApiTokens({
      key: apiKey,
      issuer: authUrl,
      audience: baseUrl,
      ttlSeconds: ttl,
      clock,
      adminToken,
    });
    const issuer = new LocalIssuer(issuerKey, issuerUrl, authUrl, clock);
    const sts = new TokenExchange({
      trustedIssuers: [issuerUrl, ...(options.trustedIssuers ?? [])],
      stsAudience: authUrl,
      apiAudience: baseUrl,
      clock,
      apiTokens,
      identityOf: (uid) => service.identityOf(uid),
      markSeen: (uid) => service.markSeen(uid),
    });
    ctx.attachAuth({ apiTokens, sts, issuer });

    let closing: Promise<void> | undefined;
    return {
      baseUrl,
      authUrl,
      issuerUrl,
      orgUid: service.orgUid,
      adminToken,
      grpcTarget: new URL(baseUrl).host,
      close: () => {
        if (closing === undefined) {
          deliveries.close();
          const closed = app.close();
          // The HTTP/2 connections are ours, not the HTTP server's: end them so that it can close.
          dispatch.close();
          closing = closed.finally(() => db.close());
        }
        return closing;
      },
      setFaults: (spec) => {
        faults.set(typeof spec === "string" ? parseFaultSpec(spec) : spec);
        return faults.spec;
      },
      setRateLimit: (spec) => {
        rateLimiter.set(rateLimitOf(spec));
        return rateLimiter.spec;
      },
      stats: () => stats.snapshot(),
      resetStats: () => stats.reset(),
      seed: (f) => loadFixtures(service, Fixtures.parse(f)),
      mintIdentityToken: (request) => issuer.mint(request),
      mintApiToken: (uid) => apiTokens.mint(uid),
      deliveries: (filter) => deliveries.log.list(filter),
    };
  } catch (e) {
    db.close();
    throw e;
  }
}

function deliveryPolicyOf(options: EmulatorOptions): Partial<DeliveryPolicy> {
  const policy: Partial<DeliveryPolicy> = {};
  const { deliveryRetries: retries, deliveryTimeoutMs: timeoutMs } = options;
  if (retries !== undefined) {
    if (!Number.isInteger(retries) || retries < 0 || retries > MAX_DELIVERY_RETRIES)
      throw new Error(
        `deliveryRetries must be a whole number from 0 to ${MAX_DELIVERY_RETRIES}, got ${retries}`,
      );
    policy.retries = retries;
  }
  if (timeoutMs !== undefined) {
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_DELIVERY_TIMEOUT_MS) {
      throw new Error(
        `deliveryTimeoutMs must be a whole number of ms from 1 to ${MAX_DELIVERY_TIMEOUT_MS}, got ${timeoutMs}`,
      );
    }
    policy.timeoutMs = timeoutMs;
  }
  return policy;
}

function rateLimitOf(spec: string | RateLimitSpec | undefined): RateLimitSpec | undefined {
  if (typeof spec === "string") return parseRateLimit(spec);
  if (spec !== undefined && !(spec.rate > 0 && Number.isInteger(spec.burst) && spec.burst >= 1)) {
    throw new Error(
      `rateLimit needs a rate above 0 and a whole burst of at least 1, got ${JSON.stringify(spec)}`,
    );
  }
  return spec;
}

// The certificate and key, each PEM text or a file holding it; both or neither.
function tlsOf(cert: string | undefined, key: string | undefined): TlsFiles | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    throw new Error("tlsCert and tlsKey go together: give both or neither");
  }
  const pem = (what: string, v: string) => {
    if (v.includes("-----BEGIN ")) return v;
    try {
      return readFileSync(v, "utf8");
    } catch (e) {
      throw new Error(`${what} ${v}: ${(e as Error).message}`);
    }
  };
  return { cert: pem("tlsCert", cert), key: pem("tlsKey", key) };
}

function readFixtures(source: string | Fixtures | undefined): Fixtures | undefined {
  if (source === undefined) return undefined;
  let doc: unknown = source;
  if (typeof source === "string") {
    try {
      doc = JSON.parse(readFileSync(source, "utf8"));
    } catch (e) {
      throw new Error(`fixtures ${source}: ${(e as Error).message}`);
    }
  }
  const parsed = Fixtures.safeParse(doc);
  if (!parsed.success) {
    const first = formatZodIssues(parsed.error, "(document)").join("; ");
    throw new Error(`fixtures${typeof source === "string" ? ` ${source}` : ""}: ${first}`);
  }
  return parsed.data;
}
