// Commands of util-linux that a process is started under, each checked once: whether it can start `true` here
// (the package installed, the call allowed in this container).
import { execFileSync } from "node:child_process";

export const PREFIXES = {
  /** Linux's idle policy (refused in some containers). */
  idle: ["chrt", "--idle", "0"],
  /** Killed when its parent dies. */
  dieWithParent: ["setpriv", "--pdeathsig", "KILL"],
} as const;
const works = new Map<keyof typeof PREFIXES, boolean>();

function prefixWorks(name: keyof typeof PREFIXES): boolean {
  let ok = works.get(name);
  if (ok === undefined) {
    const [command, ...args] = PREFIXES[name];
    try {
      execFileSync(command, [...args, "true"], { stdio: "ignore" });
      ok = true;
    } catch {
      ok = false;
    }
    works.set(name, ok);
  }
  return ok;
}

/** Whether `chrt --idle 0` can start a process here (util-linux installed, the policy allowed). */
export const canRunIdle = () => prefixWorks("idle");

/** Whether `setpriv --pdeathsig KILL` can start a process here. */
export const canDieWithParent = () => prefixWorks("dieWithParent");
