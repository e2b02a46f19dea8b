// The server of the scale benchmark's HTTP floor (mode "noop-http" of the org-tree program, whose
// providers are test/e2e/fixtures/org-tree-program/http-floor.js): it answers every request at once,
// without authorization or validation, from a map of the answers it gave, with the body the emulator
// answers for that collection (a created or read group, identity or role binding; nothing for a
// delete). So the floor pays for an HTTP exchange and nothing a service does.
//
// The answers carry what the emulator's carry: a fresh uid under the parent's, the time of the
// write, and a binding's views of its group, identity and role. The floor's state is then
// pulumi-irv's state, value for value in length and variety: the engine logs every property of every
// provider call, gzipped, so a floor whose answers repeated one short uid and one timestamp cost the
// engine less than the same stack on pulumi-irv (1.3 s of engine CPU less in a refresh of 3,000,
// measured 2026-11-29 with `pulumi refresh --profiling`) and measured the engine, not the provider.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The emulator's description of the built-in role the program binds (emulator/auth/permissions.ts). */
export const VIEWER_DESCRIPTION = "Built-in role: read-only access; pulls images and packages.";

type Json = Record<string, unknown>;

/** A created object's answer, as the emulator answers it; undefined for a collection it does not know. */
function created(
  collection: string,
  parentUid: string,
  body: Json,
  known: (uid: string) => Json,
): Json | undefined {
  const uid = `${parentUid}/${randomBytes(8).toString("hex")}`;
  const now = new Date().toISOString();
  switch (collection) {
    case "groups":
      return {
        uid,
        name: body.name,
        description: body.description,
        resourceLimits: {},
        verified: false,
        createTime: now,
        updateTime: now,
      };
    case "identities": {
      const claimMatch = { ...(body.claimMatch as Json), claims: {}, claimPatterns: {} };
      return {
        uid,
        name: body.name,
        description: body.description,
        claimMatch,
        lastSeenTime: now,
        createTime: now,
        updateTime: now,
      };
    }
    case "roleBindings": {
      const group = known(parentUid);
      const identity = known(String(body.identityUid));
      const claims = (identity.claimMatch ?? {}) as Json;
      return {
        uid,
        identity: {
          uid: body.identityUid,
          name: identity.name,
          description: identity.description,
          issuer: claims.issuer,
          subject: claims.subject,
        },
        group: { uid: parentUid, name: group.name, description: group.description },
        role: { uid: body.roleUid, name: "viewer", description: VIEWER_DESCRIPTION },
        createTime: now,
        identityUid: body.identityUid,
        roleUid: body.roleUid,
      };
    }
    default:
      return undefined;
  }
}

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
  // Each object's answer, by uid: the text a GET answers, and the object a binding's views read.
  const answers = new Map<string, { text: string; object: Json }>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      const body = Buffer.concat(chunks);
      options.record?.({ method: req.method ?? "", path, headers: req.headers, bodyBytes: body.length });
      answered++;
      // /iam/<version>/<collection>/<uid>
      const [, , , collection = "", ...rest] = path.split("/");
      const uid = rest.join("/");
      const send = (text: string) =>
        res
          .writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
          .end(text);
      if (req.method === "DELETE") {
        answers.delete(uid);
        res.writeHead(200, { "content-length": 0 }).end();
        return;
      }
      const fields = body.length === 0 ? {} : (JSON.parse(body.toString()) as Json);
      const keep = (object: Json) => {
        const text = JSON.stringify(object);
        answers.set(String(object.uid), { text, object });
        send(text);
      };
      if (req.method === "POST") {
        const object = created(collection, uid, fields, (u) => answers.get(u)?.object ?? {});
        if (object !== undefined) return keep(object);
      }
      const found = answers.get(uid);
      if (found !== undefined && req.method === "PATCH")
        return keep({ ...found.object, ...fields, updateTime: new Date().toISOString() });
      if (found === undefined || req.method !== "GET") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"code":5,"message":"not found"}');
        return;
      }
      send(found.text);
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
