// A loopback port that refuses connections and that no other process can take while a test holds
// it. Closing a server and expecting its port to refuse races every other process on the machine:
// the kernel hands a freed port to the next `listen(0)` — another vitest worker's emulator — and
// the client then meets a stranger ("network failure", issue 47) instead of a refusal.
//
// The port is held by a TCP socket that is bound and never listens: on Linux a connect to it is
// answered with a reset (ECONNREFUSED), and a bind by anyone else fails. Node cannot make such a
// socket through its public API, so a small Python process (the interpreter the Python SDK tests
// already need) holds it, for as long as its stdin stays open. The socket sets SO_REUSEPORT, so a
// Node server of this process that listens with `reusePort` can serve on the same port for a
// while; when that server closes, the port refuses again at once, with no gap for a stranger.
import type { ChildProcessByStdio } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { pythonInterpreter } from "../../../scripts/python-sdk.js";

const HOLDER = [
  "import socket, sys",
  "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)",
  "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)",
  's.bind(("127.0.0.1", 0))',
  "print(s.getsockname()[1], flush=True)",
  "sys.stdin.read()",
].join("\n");

/** A server on a held port, until `stop()`. */
export interface Forwarding {
  /** Stops listening and cuts the open connections: the port refuses from then on. */
  stop(): Promise<void>;
}

/** A loopback port that refuses every connection (except while it forwards) until released. */
export interface HeldPort {
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Serves the port by forwarding each connection to `target` (an `http://host:port` URL), so a
   * client configured with `url` talks to the target until `stop()`, when the service is gone.
   */
  forward(target: string): Promise<Forwarding>;
  /** Lets the port go; idempotent. */
  release(): Promise<void>;
}

/**
 * Holds a loopback port that refuses connections for as long as the test needs it to.
 *
 * @example
 * const held = await holdPort();
 * const front = await held.forward(irv.emulator.baseUrl);
 * await stack.setConfig({ "irv:baseUrl": held.url });
 * await stack.up();
 * await front.stop(); // from here every request to held.url is refused
 * await held.release();
 */
export async function holdPort(): Promise<HeldPort> {
  const holder: ChildProcessByStdio<Writable, Readable, Readable> = spawn(
    pythonInterpreter(),
    ["-c", HOLDER],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  holder.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(holder, "exit");
  const line = await Promise.race([
    once(createInterface({ input: holder.stdout }), "line").then(([l]) => String(l)),
    exited.then(([code]) => {
      throw new Error(
        `holding a loopback port: ${pythonInterpreter()} exited with ${code}: ${stderr.trim()}`,
      );
    }),
  ]);
  const port = Number(line.trim());
  let released = false;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    forward: (target) => forward(port, new URL(target)),
    release: async () => {
      if (released) return;
      released = true;
      holder.stdin.end();
      await exited;
    },
  };
}

async function forward(port: number, target: URL): Promise<Forwarding> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(a);
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => {
        open.delete(a);
        b.destroy();
      });
    }
  });
  server.listen({ host: "127.0.0.1", port, reusePort: true });
  await Promise.race([once(server, "listening"), once(server, "error").then(([e]) => Promise.reject(e))]);
  return {
    stop: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of open) s.destroy();
      await closed;
    },
  };
}
