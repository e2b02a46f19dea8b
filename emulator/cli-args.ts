import { parseArgs } from "node:util";
import { MAX_TOKEN_TTL_SECONDS } from "./auth/index.js";
import { parseFaultSpec, parseRateLimit } from "./core/index.js";
import { MAX_DELIVERY_RETRIES, MAX_DELIVERY_TIMEOUT_MS } from "./events/index.js";
import type { EmulatorOptions } from "./options.js";

/**
 * Usage text of the CLI.
 *
 * @example
 * process.stdout.write(USAGE);
 */
export const USAGE = `Usage: irv-emulator [options]
  --host HOST             interface to listen on (default 127.0.0.1; keep it loopback: the local
                          issuer mints tokens for anyone who can reach it)
  --port PORT             port, 0 for a free one (default 0)
  --data FILE             SQLite file that keeps state across restarts, created 0600 (default: in memory)
  --fixtures FILE         JSON fixtures loaded into a new database
  --admin-token TOKEN     the admin token (default: stored one, else random)
  --faults SPEC           injected faults, e.g. 503=0.1,429=0.05,reset=0.02,latency=20
  --latency MS            delay added to every API and STS request (the latency= fault)
  --rate-limit RATE[,burst=N]
                          per-caller token bucket: RATE requests/s, bursts of N (default
                          RATE); over it, 429 RESOURCE_EXHAUSTED with Retry-After
  --token-ttl SECONDS     lifetime of exchanged API tokens (default 3600, at most 86400)
  --trusted-issuer URL    another OIDC issuer the STS accepts (repeatable)
  --org-uid UID           root organization uid of a new database (40 hex digits)
  --tls-cert FILE         PEM certificate: the port speaks TLS, ALPN choosing h2 (gRPC) or http/1.1
  --tls-key FILE          PEM private key of --tls-cert (both or neither)
  --delivery-retries N    retries of a webhook delivery after a 5xx, 429, timeout or refused
                          connection (default 5, at most 20)
  --delivery-timeout MS   bound of one webhook delivery attempt (default 5000, at most 60000)
  --log                   log requests to stderr (also IRV_EMULATOR_LOG=1)
  --help                  this text
The same port serves gRPC (h2c, or h2 over TLS) at the host:port of baseUrl.
When ready, prints one JSON line: {"baseUrl","authUrl","issuerUrl","orgUid","adminToken"}.`;

/**
 * A command line the CLI refuses; the message names the flag.
 *
 * @example
 * if (e instanceof UsageError) process.exit(2);
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * What the command line asks for.
 *
 * @example
 * const command: CliCommand = parseCliArgs(process.argv.slice(2));
 * if (command.help) process.stdout.write(USAGE);
 * else await startEmulator(command.options);
 */
export type CliCommand = { help: true } | { help: false; options: EmulatorOptions };

/**
 * Parses the CLI's arguments into {@link EmulatorOptions}. Throws {@link UsageError} naming the bad
 * flag (unknown flag, missing value, a port or TTL that is not a number, a bad fault spec).
 *
 * @example
 * parseCliArgs(["--port", "8080", "--faults", "503=0.1"]);
 * // { help: false, options: { port: 8080, faults: "503=0.1" } }
 */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        data: { type: "string" },
        fixtures: { type: "string" },
        "admin-token": { type: "string" },
        faults: { type: "string" },
        latency: { type: "string" },
        "rate-limit": { type: "string" },
        "token-ttl": { type: "string" },
        "trusted-issuer": { type: "string", multiple: true },
        "org-uid": { type: "string" },
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
        "delivery-retries": { type: "string" },
        "delivery-timeout": { type: "string" },
        log: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (values.help === true) return { help: true };
  const str = (k: string) => values[k] as string | undefined;
  const int = (flag: string, min: number, max: number): number | undefined => {
    const raw = str(flag);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  const faults = str("faults");
  if (faults !== undefined) {
    try {
      parseFaultSpec(faults);
    } catch (e) {
      throw new UsageError(`--faults: ${(e as Error).message}`);
    }
  }
  const rateLimit = str("rate-limit");
  if (rateLimit !== undefined) {
    try {
      parseRateLimit(rateLimit);
    } catch (e) {
      throw new UsageError(`--rate-limit: ${(e as Error).message}`);
    }
  }
  const token = str("admin-token");
  if (token !== undefined && !/^\S+$/.test(token))
    throw new UsageError("--admin-token must be a non-empty word without spaces");
  const orgUid = str("org-uid");
  if (orgUid !== undefined && !/^[0-9a-f]{40}$/.test(orgUid)) {
    throw new UsageError(`--org-uid must be 40 lowercase hex digits, got ${JSON.stringify(orgUid)}`);
  }
  const issuers = (values["trusted-issuer"] as string[] | undefined) ?? [];
  for (const i of issuers) {
    if (!URL.canParse(i) || !/^https?:$/.test(new URL(i).protocol)) {
      throw new UsageError(`--trusted-issuer must be an http(s) URL, got ${JSON.stringify(i)}`);
    }
  }
  const tlsCert = str("tls-cert");
  const tlsKey = str("tls-key");
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    throw new UsageError(
      `--tls-cert and --tls-key go together: ${tlsCert === undefined ? "--tls-cert" : "--tls-key"} is missing`,
    );
  }
  const options: EmulatorOptions = {};
  const set = <K extends keyof EmulatorOptions>(k: K, v: EmulatorOptions[K]) => {
    if (v !== undefined) options[k] = v;
  };
  set("host", str("host"));
  set("port", int("port", 0, 65535));
  set("data", str("data"));
  set("fixtures", str("fixtures"));
  set("adminToken", token);
  set("faults", faults);
  set("latencyMs", int("latency", 0, 600_000));
  set("rateLimit", rateLimit);
  set("tokenTtlSeconds", int("token-ttl", 1, MAX_TOKEN_TTL_SECONDS));
  set("orgUid", orgUid);
  set("tlsCert", tlsCert);
  set("tlsKey", tlsKey);
  set("deliveryRetries", int("delivery-retries", 0, MAX_DELIVERY_RETRIES));
  set("deliveryTimeoutMs", int("delivery-timeout", 1, MAX_DELIVERY_TIMEOUT_MS));
  if (issuers.length > 0) options.trustedIssuers = issuers;
  if (values.log === true) options.log = true;
  return { help: false, options };
}
