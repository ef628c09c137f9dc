// CPU time over a slot, from Linux's /proc: the load generator (this process), each watched process with
// all its descendants (--pid NAME=PID; the reference servers are watched by themselves), and every process
// named "postgres". 100 = one core busy for the whole slot. Counted per process between two snapshots,
// so a process that exits during the slot (an idle pool connection) does not make a sum go backwards.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

function processes() {
  const list = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const name = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" "); // fields from the 3rd on: state, ppid, …, utime (14th), stime (15th)
      list.set(Number(entry), { name, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // exited between the listing and the read
    }
  }
  return list;
}

export function snapshot() {
  const own = process.cpuUsage();
  return { at: performance.now(), own: (own.user + own.system) / 1e6, processes: processes() };
}

/** CPU % per watched name between two snapshots: { loadgen, <name>…, postgres }. */
export function cpuBetween(a, b, watched) {
  const wall = (b.at - a.at) / 1000;
  const percent = (seconds) => Math.round((100 * seconds) / wall);
  const used = (pid) => {
    const now = b.processes.get(pid);
    return now ? now.ticks - (a.processes.get(pid)?.ticks ?? 0) : 0;
  };
  const children = new Map();
  for (const [pid, p] of b.processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const out = { loadgen: percent(b.own - a.own) };
  for (const { name, pid } of watched) {
    let ticks = 0;
    const stack = [pid];
    while (stack.length) {
      const next = stack.pop();
      ticks += used(next);
      stack.push(...(children.get(next) ?? []));
    }
    out[name] = percent(ticks / TICKS);
  }
  let postgres = 0;
  for (const [pid, p] of b.processes) if (p.name === "postgres") postgres += used(pid);
  out.postgres = percent(postgres / TICKS);
  return out;
}

export const formatCpu = (cpu) =>
  Object.entries(cpu)
    .map(([name, pct]) => `${name} ${pct}%`)
    .join(" ");
