import { ConfigurationError } from "../errors/api-error.js";

/**
 * Whether a URL host is this machine (IPv4 127/8, IPv6 `::1`, `localhost` and its subdomains):
 * plain http there never leaves the host.
 *
 * @example
 * isLoopbackHost(new URL("http://127.0.0.1:8080").hostname); // true
 * isLoopbackHost("irv.example.com"); // false
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    h === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}

/**
 * Parses a base URL the client will send credentials to, refusing plain http off loopback (the
 * bearer token would travel in clear) unless the caller opted in. `setting` names where the URL
 * came from, for the message.
 *
 * @example
 * checkedBaseUrl("https://irv.example.com", "the API base URL (irv:baseUrl)", false); // URL
 * checkedBaseUrl("http://irv.example.com", "the API base URL (irv:baseUrl)", false); // throws ConfigurationError
 */
export function checkedBaseUrl(raw: string, setting: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(`${setting} is not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol !== "http:")
    throw new ConfigurationError(`${setting} must be an https URL, got the scheme ${url.protocol}`);
  if (allowInsecureHttp || isLoopbackHost(url.hostname)) return url;
  throw new ConfigurationError(
    `${setting} is plain http on ${url.hostname}, which is not a loopback address: the credentials would travel in clear. ` +
      "Use https, or opt in explicitly with irv:allowInsecureHttp (IRV_ALLOW_INSECURE_HTTP=1, client option allowInsecureHttp).",
  );
}
