#!/usr/bin/env node
// Our own Pulumi language host for Node.js (`pulumi-language-nodejs`).
//
// Why it exists: the Pulumi CLI is built here from Go modules, but the Go module proxy this project can
// reach refuses the upstream language host module at every version, so the CLI would have no way to run
// a Node.js program or a Node.js policy pack. The engine talks to a language host over gRPC
// (`pulumirpc.LanguageRuntime`); this file implements the part of that service CLI 3.2xx uses for
// preview/up/refresh/destroy, config, stack outputs and policy packs, on top of the gRPC stubs that
// `@pulumi/pulumi` ships (`proto/*_pb.js`) and the `@grpc/grpc-js` copy those stubs load.
//
// The file is copied into the shared CLI cache (see scripts/pulumi-cli.ts), so it must not depend on the
// repository it came from: it imports only Node built-ins and resolves `@pulumi/pulumi` from the working
// directory the engine starts it in (the program directory), the same way the dynamic-provider shim does.
//
// Protocol summary (what the engine expects from any plugin): start a gRPC server on loopback, print its
// port as the first line of stdout, then serve until killed. Arguments are optional flags followed by the
// engine's gRPC address as the last positional argument.
//
// Start-up cost (issue 45): the engine starts this host twice per update operation (once for `About`,
// the runtime's name and version in the update's metadata, and once to run the program), about 0.2 s
// of CPU each. Measured: bare Node ~0.035 s, Node's http2 (with tls, which any gRPC server needs)
// +0.06 s, grpc-js +0.015 s, google-protobuf and the language stubs +0.07 s. Everything loaded is needed
// to bind the server, so loading less or later saved nothing measurable; only a host that is not
// Node.js would start cheaper.

import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const HOST_NAME = "pulumi-language-nodejs (pulumi-irv)";

// Exit code @pulumi/pulumi's `cmd/run` uses when it has already shown the user an actionable error; the
// engine must then stop without printing a second, generic message ("bail").
const EXIT_ALREADY_REPORTED = 32;

/**
 * Splits the plugin command line into flags and the engine address (the last positional argument).
 * Flags the engine may pass: `--logtostderr`, `-v=N`, `--tracing URL`, and the upstream host's own
 * `-root`, `-typescript`, `-tsconfig`, `-nodeargs`, `-packagemanager` (options normally come through
 * `ProgramInfo.options` instead).
 * @param {string[]} argv
 */
function parseArgs(argv) {
  /** @type {Record<string, string>} */
  const flags = {};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (!arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    const name = arg.replace(/^-+/, "");
    const eq = name.indexOf("=");
    if (eq >= 0) {
      flags[name.slice(0, eq)] = name.slice(eq + 1);
    } else if (name === "tracing" && i + 1 < argv.length) {
      flags[name] = argv[++i] ?? "";
    } else {
      flags[name] = "true";
    }
  }
  return { flags, engineAddress: positional.at(-1) ?? "" };
}

/**
 * Loads the gRPC runtime and the generated Pulumi stubs from the `@pulumi/pulumi` resolvable from `dir`.
 * `@grpc/grpc-js` is loaded from the stubs' own location so the server and the message classes come from
 * the same copy the stubs were generated against.
 * @param {string} dir
 */
function loadSdk(dir) {
  const fromDir = createRequire(path.join(dir, "__pulumi_irv_resolve__.js"));
  const languageGrpcPath = fromDir.resolve("@pulumi/pulumi/proto/language_grpc_pb.js");
  const fromProto = createRequire(languageGrpcPath);
  const sdkPackageJson = path.join(path.dirname(path.dirname(languageGrpcPath)), "package.json");
  return {
    grpc: fromProto("@grpc/grpc-js"),
    languageGrpc: fromProto("./language_grpc_pb.js"),
    languagePb: fromProto("./language_pb.js"),
    pluginPb: fromProto("./plugin_pb.js"),
    emptyPb: fromProto("google-protobuf/google/protobuf/empty_pb.js"),
    sdkVersion: String(JSON.parse(readFileSync(sdkPackageJson, "utf8")).version ?? "0.0.0"),
  };
}

/**
 * Resolves a module id from a directory, or returns undefined when it is not installed there.
 * @param {string} dir
 * @param {string} id
 */
function resolveFrom(dir, id) {
  try {
    return createRequire(path.join(dir, "__pulumi_irv_resolve__.js")).resolve(id);
  } catch {
    return undefined;
  }
}

/**
 * Runtime options from `Pulumi.yaml` (`runtime.options`) as a plain object.
 * @param {any} info ProgramInfo message or undefined
 * @returns {Record<string, unknown>}
 */
function runtimeOptions(info) {
  const options = info?.getOptions?.();
  if (!options) return {};
  const js = options.toJavaScript();
  return js && typeof js === "object" ? js : {};
}

/**
 * Environment and node flags implied by the runtime options, with the same meaning as upstream:
 * `typescript` (default true) registers ts-node inside `@pulumi/pulumi/cmd/run`, `tsconfig` picks the
 * tsconfig file, `nodeargs` adds flags to the node command line.
 * @param {Record<string, unknown>} options
 */
function optionEnvironment(options) {
  /** @type {Record<string, string>} */
  const env = {};
  const typescript = options.typescript;
  env.PULUMI_NODEJS_TYPESCRIPT = typescript === false || typescript === "false" ? "false" : "true";
  if (typeof options.tsconfig === "string" && options.tsconfig !== "") {
    env.PULUMI_NODEJS_TSCONFIG_PATH = options.tsconfig;
  }
  const nodeArgs =
    typeof options.nodeargs === "string" ? options.nodeargs.split(/\s+/).filter((a) => a !== "") : [];
  return { env, nodeArgs };
}

/** Children started by Run/RunPlugin/InstallDependencies, killed on Cancel or when the host exits. */
const children = new Set();

/**
 * Spawns a child process and tracks it until it exits.
 * @param {string} command
 * @param {string[]} args
 * @param {import("node:child_process").SpawnOptions} options
 */
function track(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.on("close", () => children.delete(child));
  return child;
}

function killChildren() {
  for (const child of children) child.kill("SIGTERM");
}

/**
 * Waits for a child to exit; resolves with its exit code and signal, or the spawn error.
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, error?: Error }>}
 */
function waitFor(child) {
  return new Promise((resolve) => {
    child.on("error", (error) => resolve({ code: null, signal: null, error }));
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Reads the dependencies a program declares in package.json with the versions installed next to it.
 * @param {string} dir
 * @param {boolean} transitive
 */
function programDependencies(dir, transitive) {
  const pkgFile = path.join(dir, "package.json");
  if (!existsSync(pkgFile)) return [];
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  const declared = { ...pkg.dependencies, ...(transitive ? pkg.devDependencies : {}) };
  return Object.keys(declared)
    .sort()
    .map((name) => {
      const installed = resolveFrom(dir, `${name}/package.json`);
      let version = String(declared[name]);
      if (installed) {
        try {
          version = String(JSON.parse(readFileSync(installed, "utf8")).version ?? version);
        } catch {
          // Keep the declared range when the installed package.json is unreadable.
        }
      }
      return { name, version };
    });
}

async function main() {
  const { flags, engineAddress: argEngineAddress } = parseArgs(process.argv.slice(2));
  let engineAddress = argEngineAddress;

  let sdk;
  try {
    sdk = loadSdk(process.cwd());
  } catch {
    process.stderr.write(
      `${HOST_NAME}: cannot load @pulumi/pulumi from ${process.cwd()}.\n` +
        "Install @pulumi/pulumi in the program directory (npm install) and try again.\n",
    );
    process.exit(1);
  }
  const { grpc, languageGrpc, languagePb, pluginPb, emptyPb } = sdk;

  /** Turns a thrown value into a gRPC INTERNAL error for a unary callback. */
  const internal = (/** @type {unknown} */ err) => ({
    code: grpc.status.INTERNAL,
    details: err instanceof Error ? err.message : String(err),
  });

  /**
   * Runs a Pulumi program through `@pulumi/pulumi/cmd/run` (resolved from the program directory, so the
   * program's own copy of the SDK talks to the engine). The program's stdout/stderr are the host's own
   * (inherited): the engine already forwards everything the host prints after the port line.
   */
  const run = async (/** @type {any} */ call, /** @type {Function} */ callback) => {
    try {
      const req = call.request;
      const info = req.getInfo();
      const pwd = req.getPwd() || info?.getProgramDirectory() || process.cwd();
      const root = info?.getRootDirectory() || pwd;
      const runEntry = resolveFrom(pwd, "@pulumi/pulumi/cmd/run");
      if (!runEntry) {
        callback(
          null,
          new languagePb.RunResponse().setError(
            `It looks like the Pulumi SDK has not been installed. Have you run npm install in ${pwd}?`,
          ),
        );
        return;
      }
      const { env: optEnv, nodeArgs } = optionEnvironment(runtimeOptions(info));

      /** @type {Record<string, string>} */
      const config = {};
      req.getConfigMap().forEach((/** @type {string} */ v, /** @type {string} */ k) => {
        config[k] = v;
      });
      const args = [...nodeArgs, runEntry, `--monitor=${req.getMonitorAddress()}`];
      if (engineAddress) args.push(`--engine=${engineAddress}`);
      if (req.getOrganization()) args.push(`--organization=${req.getOrganization()}`);
      if (req.getProject()) args.push(`--project=${req.getProject()}`);
      if (req.getStack()) args.push(`--stack=${req.getStack()}`);
      args.push(`--pwd=${pwd}`, `--root-directory=${root}`);
      if (req.getParallel() > 0) args.push(`--parallel=${req.getParallel()}`);
      if (req.getDryrun()) args.push("--dry-run");
      if (flags.tracing) args.push(`--tracing=${flags.tracing}`);
      args.push(req.getProgram() || info?.getEntryPoint() || ".", ...req.getArgsList());

      const child = track(process.execPath, args, {
        cwd: pwd,
        stdio: ["ignore", "inherit", "inherit"],
        env: {
          ...process.env,
          ...optEnv,
          PULUMI_CONFIG: JSON.stringify(config),
          PULUMI_CONFIG_SECRET_KEYS: JSON.stringify(req.getConfigsecretkeysList()),
        },
      });
      const { code, signal, error } = await waitFor(child);
      const res = new languagePb.RunResponse();
      if (error) res.setError(`Failed to start the Node.js program: ${error.message}`);
      else if (code === EXIT_ALREADY_REPORTED) res.setBail(true);
      else if (signal) res.setError(`Program exited after signal ${signal}`);
      else if (code !== 0) res.setError(`Program exited with non-zero exit code: ${code}`);
      callback(null, res);
    } catch (err) {
      callback(internal(err));
    }
  };

  /**
   * Runs a plugin written in Node.js, streaming its output back. The engine uses this for policy packs
   * (kind "analyzer"): `@pulumi/pulumi/cmd/run-policy-pack` is resolved from the pack directory and given
   * the engine address and the pack program; the pack prints its own gRPC port, which the engine reads
   * from this stream.
   */
  const runPlugin = (/** @type {any} */ call) => {
    const req = call.request;
    const info = req.getInfo();
    const dir = info?.getProgramDirectory() || req.getPwd() || process.cwd();
    const kind = req.getKind();
    const entryId =
      kind === "analyzer" ? "@pulumi/pulumi/cmd/run-policy-pack" : "@pulumi/pulumi/cmd/run-plugin";
    const entry = resolveFrom(dir, entryId);
    let cancelled = false;
    const send = (/** @type {(r: any) => void} */ fill) => {
      if (cancelled) return;
      const res = new languagePb.RunPluginResponse();
      fill(res);
      call.write(res);
    };
    if (!entry) {
      // The engine recognises this exact message and turns it into "run npm install in the pack dir".
      send((r) => r.setStderr(Buffer.from(`Error: Cannot find module '${entryId}' from ${dir}\n`)));
      send((r) => r.setExitcode(1));
      call.end();
      return;
    }
    const { env: optEnv, nodeArgs } = optionEnvironment(runtimeOptions(info));
    const env = { ...optEnv };
    for (const kv of req.getEnvList()) {
      const eq = kv.indexOf("=");
      if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    const program = info?.getEntryPoint() || ".";
    const args =
      kind === "analyzer"
        ? [...nodeArgs, entry, ...req.getArgsList(), program]
        : [...nodeArgs, entry, program, ...req.getArgsList()];
    const child = track(process.execPath, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (chunk) => send((r) => r.setStdout(chunk)));
    child.stderr?.on("data", (chunk) => send((r) => r.setStderr(chunk)));
    call.on("cancelled", () => {
      cancelled = true;
      child.kill("SIGTERM");
    });
    waitFor(child).then(({ code, error }) => {
      if (error) send((r) => r.setStderr(Buffer.from(`Failed to start plugin: ${error.message}\n`)));
      send((r) => r.setExitcode(code ?? 1));
      if (!cancelled) call.end();
    });
  };

  /**
   * Installs a program's dependencies with npm when `@pulumi/pulumi` is not resolvable from it yet
   * (`pulumi install`, templates). Programs inside this repository already resolve everything from the
   * repository's node_modules, so this is normally a no-op.
   */
  const installDependencies = (/** @type {any} */ call) => {
    const req = call.request;
    const dir = req.getInfo()?.getProgramDirectory() || req.getDirectory() || process.cwd();
    if (resolveFrom(dir, "@pulumi/pulumi/package.json") || !existsSync(path.join(dir, "package.json"))) {
      call.end();
      return;
    }
    const child = track("npm", ["install"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    const send = (/** @type {string} */ field, /** @type {Buffer} */ chunk) => {
      const res = new languagePb.InstallDependenciesResponse();
      if (field === "stdout") res.setStdout(chunk);
      else res.setStderr(chunk);
      call.write(res);
    };
    child.stdout?.on("data", (chunk) => send("stdout", chunk));
    child.stderr?.on("data", (chunk) => send("stderr", chunk));
    waitFor(child).then(({ code, error }) => {
      if (error || code !== 0) {
        // grpc-js turns an 'error' event on a server stream into the call's final status.
        call.emit("error", {
          code: grpc.status.INTERNAL,
          details: `npm install failed in ${dir}: ${error?.message ?? `exit ${code}`}`,
        });
        return;
      }
      call.end();
    });
  };

  const service = {
    handshake(/** @type {any} */ call, /** @type {Function} */ callback) {
      const address = call.request.getEngineAddress();
      if (address) engineAddress = address;
      callback(null, new languagePb.LanguageHandshakeResponse());
    },
    getPluginInfo(/** @type {any} */ _call, /** @type {Function} */ callback) {
      callback(null, new pluginPb.PluginInfo().setVersion(sdk.sdkVersion));
    },
    // Programs here only use dynamic providers, which the engine runs through the
    // `pulumi-resource-pulumi-nodejs` shim: no plugin or package has to be installed up front.
    getRequiredPlugins(/** @type {any} */ _call, /** @type {Function} */ callback) {
      callback(null, new languagePb.GetRequiredPluginsResponse());
    },
    getRequiredPackages(/** @type {any} */ _call, /** @type {Function} */ callback) {
      callback(null, new languagePb.GetRequiredPackagesResponse());
    },
    run,
    runPlugin,
    installDependencies,
    runtimeOptionsPrompts(/** @type {any} */ _call, /** @type {Function} */ callback) {
      callback(null, new languagePb.RuntimeOptionsResponse());
    },
    about(/** @type {any} */ _call, /** @type {Function} */ callback) {
      const res = new languagePb.AboutResponse().setExecutable(process.execPath).setVersion(process.version);
      callback(null, res);
    },
    getProgramDependencies(/** @type {any} */ call, /** @type {Function} */ callback) {
      try {
        const req = call.request;
        const dir = req.getInfo()?.getProgramDirectory() || req.getPwd() || process.cwd();
        const res = new languagePb.GetProgramDependenciesResponse();
        for (const dep of programDependencies(dir, req.getTransitivedependencies())) {
          res.addDependencies(new languagePb.DependencyInfo().setName(dep.name).setVersion(dep.version));
        }
        callback(null, res);
      } catch (err) {
        callback(internal(err));
      }
    },
    template(/** @type {any} */ _call, /** @type {Function} */ callback) {
      callback(null, new languagePb.TemplateResponse());
    },
    cancel(/** @type {any} */ _call, /** @type {Function} */ callback) {
      killChildren();
      callback(null, new emptyPb.Empty());
    },
    // GenerateProgram/GenerateProject/GeneratePackage/Pack/Link (codegen, `pulumi convert`, packaging) are
    // left out: grpc-js answers UNIMPLEMENTED for them.
  };

  const server = new grpc.Server();
  server.addService(languageGrpc.LanguageRuntimeService, service);
  const port = await new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, boundPort) =>
      err ? reject(err) : resolve(boundPort),
    );
  });
  // The first stdout line is the contract with the engine: the port to dial.
  process.stdout.write(`${port}\n`);

  for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
    process.on(signal, () => {
      killChildren();
      server.forceShutdown();
      process.exit(0);
    });
  }
}

main().catch((err) => {
  process.stderr.write(`${HOST_NAME}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
