"""Our own, test-only Pulumi language host for Python (``pulumi-language-python``).

Why it exists: the Pulumi CLI is built here from Go modules, and the Go module proxy this project can
reach refuses Pulumi's Python language host module, so the engine would have no way to run a Python
program. Users run Pulumi's real host (it ships with every Pulumi install); this one exists so that the
tests can run the Python SDK end to end. It implements the part of ``pulumirpc.LanguageRuntime`` that
preview, up, refresh, destroy, config and stack outputs use, on the gRPC stubs the ``pulumi`` PyPI
package ships (``pulumi.runtime.proto``).

It runs on an interpreter that has ``pulumi`` (the tools virtualenv of scripts/python-sdk.ts) and runs
the user's program with the project's own virtualenv (``runtime.options.virtualenv`` in Pulumi.yaml,
relative to the project root), through pulumi-language-python-exec.py beside this file.

Protocol (what the engine expects from any plugin): serve gRPC on loopback, print the port as the first
line of stdout, then serve until killed. Arguments: optional flags, then the engine's address.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from concurrent import futures
from importlib import metadata
from typing import Any, Iterator

import grpc
from google.protobuf import empty_pb2, json_format
from pulumi.runtime.proto import language_pb2, language_pb2_grpc, plugin_pb2

HOST_NAME = "pulumi-language-python (pulumi-irv)"
EXEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pulumi-language-python-exec.py")
# Exit code of a program that already showed the user an actionable error: the engine then stops
# without a second, generic message.
EXIT_ALREADY_REPORTED = 32

# Lists the installed distributions of an environment with the pulumi-plugin.json each ships (if any).
# Run by the program's own interpreter, so it sees that virtualenv, not ours.
LIST_PACKAGES = r"""
import json, os
from importlib import metadata
out = []
for dist in metadata.distributions():
    name = dist.metadata["Name"]
    if not name:
        continue
    plugin = None
    for f in dist.files or []:
        parts = f.parts
        if len(parts) == 2 and parts[1] == "pulumi-plugin.json":
            try:
                plugin = json.loads(f.read_text())
            except Exception:
                plugin = None
            break
    out.append({"name": name, "version": dist.version, "plugin": plugin})
print(json.dumps(out))
"""


def parse_args(argv: list[str]) -> tuple[dict[str, str], str]:
    """Splits the command line into flags (``-k=v``, ``--k v`` for tracing) and the engine address."""
    flags: dict[str, str] = {}
    positional: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if not arg.startswith("-"):
            positional.append(arg)
        else:
            name = arg.lstrip("-")
            if "=" in name:
                key, value = name.split("=", 1)
                flags[key] = value
            elif name == "tracing" and i + 1 < len(argv):
                i += 1
                flags[name] = argv[i]
            else:
                flags[name] = "true"
        i += 1
    return flags, positional[-1] if positional else ""


def runtime_options(info: Any) -> dict[str, Any]:
    """``runtime.options`` of Pulumi.yaml, from a ProgramInfo message."""
    if info is None or not info.HasField("options"):
        return {}
    return json_format.MessageToDict(info.options)


def virtualenv_of(info: Any) -> str | None:
    """The program's virtualenv directory, or None for the interpreter on PATH (no ``virtualenv`` option)."""
    venv = runtime_options(info).get("virtualenv")
    if not isinstance(venv, str) or venv == "":
        return None
    if os.path.isabs(venv):
        return venv
    return os.path.join(info.root_directory or info.program_directory or os.getcwd(), venv)


def interpreter(info: Any) -> tuple[str, dict[str, str]]:
    """The program's Python and the environment to run it with (the virtualenv activated, as upstream)."""
    env = dict(os.environ)
    venv = virtualenv_of(info)
    if venv is None:
        return "python3", env
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        raise FileNotFoundError(
            f"The virtual environment {venv} does not exist (runtime.options.virtualenv in Pulumi.yaml). "
            f"Create it with `python3 -m venv {venv}` and `{venv}/bin/pip install -r requirements.txt`, "
            "or run `pulumi install`."
        )
    env["VIRTUAL_ENV"] = venv
    env["PATH"] = os.pathsep.join([os.path.join(venv, "bin"), env.get("PATH", "")])
    env.pop("PYTHONHOME", None)
    return python, env


def plugin_version(version: str) -> str:
    """A PEP 440 release (``1.2.3``, ``1.2``) as a plugin version ``v1.2.3``."""
    parts = version.split(".")
    while len(parts) < 3:
        parts.append("0")
    return "v" + ".".join(parts)


class Host(language_pb2_grpc.LanguageRuntimeServicer):
    """The LanguageRuntime service; children it starts are killed on Cancel and at exit."""

    def __init__(self, engine_address: str, flags: dict[str, str]) -> None:
        self.engine_address = engine_address
        self.flags = flags
        self.children: set[subprocess.Popen[bytes]] = set()
        self.lock = threading.Lock()

    def _start(self, args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        child = subprocess.Popen(args, **kwargs)
        with self.lock:
            self.children.add(child)
        return child

    def _done(self, child: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.children.discard(child)

    def kill_children(self) -> None:
        with self.lock:
            for child in list(self.children):
                child.terminate()

    def _packages(self, info: Any) -> list[dict[str, Any]]:
        python, env = interpreter(info)
        out = subprocess.run([python, "-c", LIST_PACKAGES], env=env, capture_output=True, check=True)
        return json.loads(out.stdout)

    def Handshake(self, request: Any, context: Any) -> Any:
        if request.engine_address:
            self.engine_address = request.engine_address
        return language_pb2.LanguageHandshakeResponse()

    def GetPluginInfo(self, request: Any, context: Any) -> Any:
        return plugin_pb2.PluginInfo(version=metadata.version("pulumi"))

    def GetRequiredPlugins(self, request: Any, context: Any) -> Any:
        # As upstream: the engine asks for packages instead.
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "GetRequiredPlugins is not implemented: use GetRequiredPackages")

    def GetRequiredPackages(self, request: Any, context: Any) -> Any:
        """Every installed distribution that ships a pulumi-plugin.json with ``resource: true``."""
        try:
            packages = []
            for dist in self._packages(request.info):
                plugin = dist.get("plugin")
                if not isinstance(plugin, dict) or plugin.get("resource") is not True:
                    continue
                name = plugin.get("name") or dist["name"].removeprefix("pulumi-").removeprefix("pulumi_")
                version = plugin.get("version") or dist["version"]
                packages.append(
                    plugin_pb2.PackageDependency(
                        name=name,
                        kind="resource",
                        version=version if version.startswith("v") else plugin_version(version),
                        server=plugin.get("server") or "",
                    )
                )
            return language_pb2.GetRequiredPackagesResponse(packages=packages)
        except FileNotFoundError as err:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))

    def GetProgramDependencies(self, request: Any, context: Any) -> Any:
        try:
            deps = [
                language_pb2.DependencyInfo(name=d["name"], version=d["version"])
                for d in sorted(self._packages(request.info), key=lambda d: d["name"].lower())
            ]
            return language_pb2.GetProgramDependenciesResponse(dependencies=deps)
        except FileNotFoundError as err:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))

    def InstallDependencies(self, request: Any, context: Any) -> Iterator[Any]:
        """Creates the virtualenv and installs requirements.txt into it when it does not exist yet."""
        info = request.info
        venv = virtualenv_of(info)
        directory = info.program_directory or request.directory or os.getcwd()
        requirements = os.path.join(directory, "requirements.txt")
        if venv is None or os.path.exists(os.path.join(venv, "bin", "python")):
            return
        steps = [[sys.executable, "-m", "venv", venv]]
        if os.path.exists(requirements):
            steps.append([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-r", requirements])
        for step in steps:
            yield language_pb2.InstallDependenciesResponse(stdout=f"$ {' '.join(step)}\n".encode())
            child = self._start(step, cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            assert child.stdout is not None
            for line in child.stdout:
                yield language_pb2.InstallDependenciesResponse(stdout=line)
            code = child.wait()
            self._done(child)
            if code != 0:
                context.abort(grpc.StatusCode.INTERNAL, f"`{' '.join(step)}` failed with exit code {code}")

    def RuntimeOptionsPrompts(self, request: Any, context: Any) -> Any:
        return language_pb2.RuntimeOptionsResponse()

    def Template(self, request: Any, context: Any) -> Any:
        return language_pb2.TemplateResponse()

    def About(self, request: Any, context: Any) -> Any:
        try:
            python, env = interpreter(request.info if request.HasField("info") else None)
            version = subprocess.run(
                [python, "--version"], env=env, capture_output=True, text=True, check=True
            ).stdout.strip()
            return language_pb2.AboutResponse(executable=python, version=version.removeprefix("Python "))
        except (FileNotFoundError, subprocess.CalledProcessError) as err:
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(err))

    def Run(self, request: Any, context: Any) -> Any:
        """Runs the program through pulumi-language-python-exec.py in its virtualenv."""
        info = request.info
        try:
            python, env = interpreter(info)
        except FileNotFoundError as err:
            return language_pb2.RunResponse(error=str(err))
        args = [python, "-u", EXEC]

        def arg(name: str, value: str) -> None:
            if value:
                args.extend([f"--{name}", value])

        arg("monitor", request.monitor_address)
        arg("engine", self.engine_address)
        arg("project", request.project)
        arg("root_directory", info.root_directory)
        arg("stack", request.stack)
        arg("pwd", request.pwd)
        arg("dry_run", "true" if request.dryRun else "false")
        arg("parallel", str(request.parallel))
        arg("tracing", self.flags.get("tracing", ""))
        arg("organization", request.organization)
        args.append(info.entry_point or request.program or ".")
        args.extend(request.args)
        env["PULUMI_CONFIG"] = json.dumps(dict(request.config))
        env["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(list(request.configSecretKeys))
        # The program's output is the host's own: the engine forwards what the host prints after the port.
        child = self._start(args, cwd=request.pwd or info.program_directory or None, env=env)
        code = child.wait()
        self._done(child)
        if code == 0:
            return language_pb2.RunResponse()
        if code == EXIT_ALREADY_REPORTED:
            return language_pb2.RunResponse(bail=True)
        if code < 0:
            return language_pb2.RunResponse(error=f"Program exited after signal {-code}")
        return language_pb2.RunResponse(error=f"Program exited with non-zero exit code: {code}")

    def Cancel(self, request: Any, context: Any) -> Any:
        self.kill_children()
        return empty_pb2.Empty()

    # RunPlugin (Python policy packs and plugins), GenerateProgram/GenerateProject/GeneratePackage, Pack
    # and Link stay UNIMPLEMENTED: the tests run programs only.


def main() -> None:
    flags, engine_address = parse_args(sys.argv[1:])
    host = Host(engine_address, flags)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    language_pb2_grpc.add_LanguageRuntimeServicer_to_server(host, server)
    port = server.add_insecure_port("127.0.0.1:0")
    if port == 0:
        sys.exit(f"{HOST_NAME}: could not listen on 127.0.0.1")
    server.start()
    # The first stdout line is the contract with the engine: the port to dial.
    print(port, flush=True)

    def stop(signum: int, frame: Any) -> None:
        host.kill_children()
        server.stop(grace=None)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
