import { isIP } from "node:net";

/**
 * Why a subscription's sink cannot be delivered to, or undefined when it can. The published `sink`
 * field must use https; the emulator also takes `http://` on a loopback host (127.0.0.0/8, `::1`,
 * `localhost`), so that a receiver on the test's own machine can be tried without a certificate
 * (docs/contract-decisions.md).
 *
 * @example
 * sinkProblem("http://127.0.0.1:8080/hook"); // undefined
 * sinkProblem("http://example.com/hook"); // "must use https (http only on a loopback host)"
 */
export function sinkProblem(sink: string): string | undefined {
  let url: URL;
  try {
    url = new URL(sink);
  } catch {
    return "must be an absolute URL";
  }
  if (url.username !== "" || url.password !== "") return "must not carry credentials";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && isLoopback(url.hostname)) return undefined;
  return "must use https (http only on a loopback host)";
}

function isLoopback(hostname: string): boolean {
  const host = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  if (host === "localhost") return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1";
}
