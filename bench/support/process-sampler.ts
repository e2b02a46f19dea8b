// Where the time and memory of a CLI command go: samples /proc every few hundred ms for the
// processes this benchmark started (the pulumi engine, the language host, the program, the
// dynamic-provider plugin) and keeps each one's CPU time and peak resident memory (VmHWM). Linux
// only; elsewhere it reports nothing. Processes of other work on the machine are ignored: only
// descendants of this process are read.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";

/**
 * The parts of one Pulumi command, by what the process runs.
 *
 * @example
 * const role: Role = "provider"; // the dynamic-provider plugin
 */
export type Role = "engine" | "language host" | "program" | "provider" | "other";

/**
 * CPU time and peak memory of one role during a command (summed over its processes).
 *
 * @example
 * const { cpuMs, peakRssBytes }: RoleUsage = sampler.stop().provider;
 */
export interface RoleUsage {
  cpuMs: number;
  /** The largest VmHWM (peak RSS) of any process of this role, in bytes. */
  peakRssBytes: number;
  processes: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function classify(cmdline: string): Role {
  if (cmdline.includes("dynamic-provider")) return "provider";
  if (cmdline.includes("pulumi-language-nodejs")) return "language host";
  if (/@pulumi[/\\]pulumi[/\\]cmd[/\\]run/.test(cmdline)) return "program";
  if (/(^|\/)pulumi(\0|$| )/.test(cmdline)) return "engine";
  return "other";
}

interface Seen {
  role: Role;
  cpuMs: number;
  hwmBytes: number;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined; // it exited between the listing and the read
  }
}

/**
 * CPU time (user + system) of a process so far, in ms, from /proc; NaN when it cannot be read (no
 * such process, or not Linux).
 *
 * @example
 * const before = processCpuMs(server.pid); await load(); const used = processCpuMs(server.pid) - before;
 */
export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

function usageOf(pid: number): { cpuMs: number; hwmBytes: number; cmdline: string } | undefined {
  try {
    const cpuMs = processCpuMs(pid);
    if (Number.isNaN(cpuMs)) return undefined;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { cpuMs, hwmBytes: hwm ? Number(hwm[1]) * 1024 : 0, cmdline };
  } catch {
    return undefined;
  }
}

/**
 * Samples the descendants of this process until stopped.
 *
 * @example
 * const sampler = new ProcessSampler();
 * await stack.up();
 * const usage = sampler.stop(); // usage.provider.peakRssBytes, usage.engine.cpuMs, …
 */
export class ProcessSampler {
  private readonly seen = new Map<number, Seen>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(intervalMs = 500) {
    if (os.platform() !== "linux") return;
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  /**
   * Stops sampling and returns the usage per role.
   *
   * @example
   * const { provider } = sampler.stop();
   */
  stop(): Record<Role, RoleUsage> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.sample();
    const out = {} as Record<Role, RoleUsage>;
    for (const role of ["engine", "language host", "program", "provider", "other"] as const)
      out[role] = { cpuMs: 0, peakRssBytes: 0, processes: 0 };
    for (const s of this.seen.values()) {
      const u = out[s.role];
      u.cpuMs += s.cpuMs;
      u.peakRssBytes = Math.max(u.peakRssBytes, s.hwmBytes);
      u.processes++;
    }
    return out;
  }

  private sample(): void {
    let pids: number[];
    try {
      pids = readdirSync("/proc")
        .filter((d) => /^\d+$/.test(d))
        .map(Number);
    } catch {
      return;
    }
    const parents = new Map<number, number>();
    for (const pid of pids) {
      const ppid = parentOf(pid);
      if (ppid !== undefined) parents.set(pid, ppid);
    }
    const mine = (pid: number): boolean => {
      for (let p = pid, depth = 0; p > 1 && depth < 32; depth++) {
        const parent = parents.get(p);
        if (parent === undefined) return false;
        if (parent === process.pid) return true;
        p = parent;
      }
      return false;
    };
    for (const pid of parents.keys()) {
      if (!mine(pid)) continue;
      const r = usageOf(pid);
      if (r === undefined) continue;
      const prev = this.seen.get(pid);
      // A plugin starts as the shell shim and becomes node by exec: the later name wins.
      const role = classify(r.cmdline);
      this.seen.set(pid, {
        role: role === "other" && prev !== undefined ? prev.role : role,
        cpuMs: Math.max(prev?.cpuMs ?? 0, r.cpuMs),
        hwmBytes: Math.max(prev?.hwmBytes ?? 0, r.hwmBytes),
      });
    }
  }
}
