import { createHash } from "node:crypto";

/**
 * One CloudEvent (spec 1.0) as the emulator delivers it: the context attributes, the extension
 * attributes (lower-case names, string values) and the data, JSON bytes.
 *
 * @example
 * const event: CloudEvent = { id, source: emu.baseUrl, type: "dev.chainguard.api.iam.group.created.v1", subject: uid, time, extensions: { group: uid }, data };
 */
export interface CloudEvent {
  id: string;
  source: string;
  type: string;
  subject: string;
  /** RFC 3339. */
  time: string;
  extensions: Readonly<Record<string, string>>;
  /** The data as sent (`application/json`); the token's digest is over these bytes. */
  data: Buffer;
}

/**
 * The data's digest as the webhook token's `webhook.digest` claim carries it, and as the published
 * receiver recomputes it: `sha256:` and the lower-case hex of the SHA-256 of the data bytes.
 *
 * @example
 * dataDigest(Buffer.from("{}")); // "sha256:44136fa3…"
 */
export function dataDigest(data: Buffer): string {
  return `sha256:${createHash("sha256").update(data).digest("hex")}`;
}

// Characters a header value may carry as they are; the HTTP binding (§3.1.3.2) percent-encodes the
// rest of a string attribute's UTF-8 bytes, and `%` itself.
const PLAIN = /^[\x21-\x24\x26-\x7e ]*$/;

function headerValue(value: string): string {
  if (PLAIN.test(value)) return value;
  let out = "";
  for (const ch of value) {
    if (PLAIN.test(ch)) out += ch;
    else
      for (const byte of Buffer.from(ch, "utf8"))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/**
 * The headers of the event in the HTTP binding's binary mode: each attribute as a `ce-` header, the
 * data as the body with its content type. This is what the CloudEvents SDKs' receivers (the
 * published Go receiver reads with sdk-go's `binding.ToEvent`) parse.
 *
 * @example
 * await fetch(sink, { method: "POST", headers: binaryModeHeaders(event), body: event.data });
 */
export function binaryModeHeaders(event: CloudEvent): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "ce-specversion": "1.0",
    "ce-id": headerValue(event.id),
    "ce-source": headerValue(event.source),
    "ce-type": headerValue(event.type),
    "ce-subject": headerValue(event.subject),
    "ce-time": event.time,
  };
  for (const [name, value] of Object.entries(event.extensions)) headers[`ce-${name}`] = headerValue(value);
  return headers;
}
