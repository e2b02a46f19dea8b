// A release served on loopback as GitHub would serve its assets: the files of a directory over
// HTTP, every request path recorded, so that a test can tell the engine fetched the plugin from it.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A running release server.
 *
 * @example
 * const server: ReleaseServer = await serveRelease(dir);
 */
export interface ReleaseServer {
  /** `http://127.0.0.1:<port>/`: a download URL. */
  url: string;
  /** Paths requested so far, in order. */
  requests: string[];
  /** Points the server at the directory a release was written to. */
  serve(dir: string): void;
  close(): Promise<void>;
}

/**
 * Starts the server (before the release exists: its URL goes into the release); 404 for what is not there.
 *
 * @example
 * const server = await serveRelease();
 * server.serve("/tmp/release");
 */
export async function serveRelease(dir?: string): Promise<ReleaseServer> {
  let root = dir;
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(url.pathname);
    const file =
      root === undefined ? undefined : path.join(root, path.basename(decodeURIComponent(url.pathname)));
    if (file === undefined || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    serve: (d) => {
      root = d;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
