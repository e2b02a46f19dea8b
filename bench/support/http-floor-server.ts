// The server of the scale benchmark's HTTP floor (mode "noop-http" of the org-tree program, whose
// providers are test/e2e/fixtures/org-tree-program/http-floor.js): it answers every request at once,
// without a store, authorization or validation, with a body of the size and shape the emulator
// answers for that collection (a created or read group, identity or role binding; nothing for a
// delete). So the floor pays for an HTTP exchange and nothing a service does.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

const NOW = "2026-01-01T00:00:00.000Z";
const ORG = "0123456789abcdef0123456789abcdef01234567";
const GROUP = `${ORG}/0123456789abcdef`;

// As the emulator answers a group, an identity and a role binding of the org-tree program.
const ANSWERS: Record<string, string> = {
  groups: JSON.stringify({
    uid: GROUP,
    name: "noop-g-000",
    description: "group 0",
    resourceLimits: {},
    verified: false,
    createTime: NOW,
    updateTime: NOW,
  }),
  identities: JSON.stringify({
    uid: `${GROUP}/0123456789abcdef`,
    name: "noop-id-000",
    description: "identity 0",
    claimMatch: {
      issuer: "https://token.actions.githubusercontent.com",
      subject: "repo:acme/noop-000:ref:refs/heads/main",
      claims: {},
      claimPatterns: {},
    },
    lastSeenTime: NOW,
    createTime: NOW,
    updateTime: NOW,
  }),
  roleBindings: JSON.stringify({
    uid: `${GROUP}/fedcba9876543210`,
    identity: {
      uid: `${GROUP}/0123456789abcdef`,
      name: "noop-id-000",
      description: "identity 0",
      subject: "repo:acme/noop-000:ref:refs/heads/main",
      issuer: "https://token.actions.githubusercontent.com",
    },
    group: { uid: GROUP, name: "noop-g-000", description: "group 0" },
    role: {
      uid: "0123456789abcdef0123456789abcdef01234567",
      name: "viewer",
      description: "Built-in role: read-only access.",
    },
    createTime: NOW,
  }),
};

/**
 * A request the server got: what the HTTP floor's test compares with pulumi-irv's.
 *
 * @example
 * const r: FloorRequest = { method: "GET", path: "/iam/v2beta1/groups/…", headers: {}, bodyBytes: 0 };
 */
export interface FloorRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  bodyBytes: number;
}

/**
 * The running server.
 *
 * @example
 * const floor: HttpFloorServer = await startHttpFloorServer();
 */
export interface HttpFloorServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** How many requests it answered. */
  readonly answered: number;
  close(): Promise<void>;
}

/**
 * Starts the server on a free loopback port. With `record`, each request is passed to it once read.
 *
 * @example
 * const floor = await startHttpFloorServer();
 * env.IRV_HTTP_FLOOR_URL = floor.url;
 * await floor.close();
 */
export async function startHttpFloorServer(
  options: { record?: (request: FloorRequest) => void } = {},
): Promise<HttpFloorServer> {
  let answered = 0;
  const server = http.createServer((req, res) => {
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => {
      bodyBytes += chunk.length;
    });
    req.on("end", () => {
      const path = req.url ?? "/";
      options.record?.({ method: req.method ?? "", path, headers: req.headers, bodyBytes });
      answered++;
      if (req.method === "DELETE") {
        res.writeHead(200, { "content-length": 0 }).end();
        return;
      }
      const answer = ANSWERS[path.split("/")[3] ?? ""];
      if (answer === undefined) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"code":5,"message":"not found"}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  server.keepAliveTimeout = 72_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get answered() {
      return answered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
