// A Python program of the SDK as a user sets it up: the example copied into a fresh directory with its
// own virtualenv, the built wheel installed into it with pip from the cached wheelhouse only (offline),
// run by the wheelhouse venv's pip aimed at the new venv (made without pip: ensurepip was most of a
// venv's cost, issues 45/46), and the engine given our test-only Python language host beside the CLI and the packaged plugin.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OfflineInstaller } from "../../../scripts/python-sdk.ts";
import {
  buildPythonWheel,
  createOfflineVirtualenv,
  ensurePythonLanguageHost,
  ensurePythonWheelhouse,
  pipInstallOffline,
} from "../../../scripts/python-sdk.ts";
import type { TestStack } from "../harness/index.js";
import type { NativePlugin } from "./native-plugin.js";
import { prepareNativePlugin } from "./native-plugin.js";

/**
 * The Python toolchain of a test: the wheelhouse, the built wheel, and the plugin with the Python host.
 *
 * @example
 * const py: PythonToolchain = await preparePythonToolchain(pulumiBinDir());
 */
export interface PythonToolchain {
  wheelhouse: string;
  /** The tools virtualenv's interpreter (build, mypy). */
  toolsPython: string;
  /** dist/pulumi_irv-<version>-py3-none-any.whl */
  wheel: string;
  /** dist/pulumi_irv-<version>.tar.gz */
  sdist: string;
  version: string;
  /** The packaged plugin; its `env` puts the CLI (with the Python host beside it) on PATH. */
  plugin: NativePlugin;
}

/**
 * Fetches the wheelhouse once per machine (a progress line, about a minute), builds the wheel and the
 * plugin, and installs the Python host beside the CLI.
 *
 * @example
 * const py = await preparePythonToolchain(pulumiBinDir());
 */
export async function preparePythonToolchain(cliBinDir: string): Promise<PythonToolchain> {
  const log = (line: string) => console.error(line);
  const { wheelhouse, python } = await ensurePythonWheelhouse({ log });
  const { wheel, sdist, version } = await buildPythonWheel({ log });
  const hostDir = await ensurePythonLanguageHost({ cliBinDir, log });
  const plugin = await prepareNativePlugin(cliBinDir);
  plugin.env.PATH = [hostDir, plugin.env.PATH].join(path.delimiter);
  return { wheelhouse, toolsPython: python, wheel, sdist, version, plugin };
}

/**
 * A copy of an example in a temp dir with a fresh `venv/` holding what `pip install` made of `requirements`
 * (the venv has no pip of its own: install more with `pip`).
 *
 * @example
 * const qs = createPythonProject("examples/quickstart-python", py, [py.wheel]);
 * qs.pip(["mypy"]);
 */
export interface PythonProject {
  dir: string;
  /** `<dir>/venv/bin/python` */
  python: string;
  /** What pip printed when installing the requirements. */
  installLog: string;
  /** `pip install --no-index --find-links <wheelhouse> …` into the project's venv. */
  pip(args: string[]): string;
  /** Links the venv into a stack's project dir, where `virtualenv: venv` of Pulumi.yaml points. */
  linkVenv(stack: TestStack): void;
  dispose(): void;
}

/**
 * Copies `example` (without any venv it has) and installs `requirements` offline into a new venv.
 *
 * @example
 * const qs = createPythonProject(path.join(root, "examples/quickstart-python"), py, [py.wheel]);
 */
export function createPythonProject(
  example: string,
  py: Pick<PythonToolchain, "wheelhouse" | "toolsPython">,
  requirements: string[],
): PythonProject {
  const work = mkdtempSync(path.join(tmpdir(), "irv-python-"));
  const dir = path.join(work, path.basename(example));
  cpSync(example, dir, {
    recursive: true,
    filter: (src) => !/[/\\](venv|__pycache__|\.mypy_cache)$/.test(src),
  });
  const venv = path.join(dir, "venv");
  const installer: OfflineInstaller = { wheelhouse: py.wheelhouse, python: py.toolsPython };
  const python = createOfflineVirtualenv(venv, installer);
  const pip = (args: string[]) => pipInstallOffline(python, installer, args);
  return {
    dir,
    python,
    installLog: pip(requirements),
    pip,
    linkVenv: (stack) => symlinkSync(venv, path.join(stack.projectDir, "venv"), "dir"),
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}

/**
 * A quickstart in Python made ready to run by the engine: what a language-neutral test needs.
 *
 * @example
 * const q: PreparedPythonProgram = await preparePythonProgram(example, pulumiBinDir());
 */
export interface PreparedPythonProgram {
  /** The copy with its `venv/` to hand to `createStack`. */
  program: string;
  /** The stack's env: the CLI with the Python host and the YAML host first on PATH. */
  env: Record<string, string>;
  /** Before the first operation: the venv linked into the stack's project dir, the plugin installed. */
  beforeUp(stack: TestStack): Promise<void>;
  dispose(): void;
}

/**
 * The toolchain, a fresh venv with the built wheel, and the hooks a stack of `example` needs.
 *
 * @example
 * const q = await preparePythonProgram(path.join(root, "examples/quickstart-python"), pulumiBinDir());
 * const stack = await createStack({ program: q.program, config, env: q.env });
 * await q.beforeUp(stack);
 */
export async function preparePythonProgram(
  example: string,
  cliBinDir: string,
): Promise<PreparedPythonProgram> {
  const py = await preparePythonToolchain(cliBinDir);
  const project = createPythonProject(example, py, [py.wheel]);
  return {
    program: project.dir,
    env: py.plugin.env,
    beforeUp: async (stack) => {
      project.linkVenv(stack);
      await py.plugin.install(stack);
    },
    dispose: project.dispose,
  };
}
