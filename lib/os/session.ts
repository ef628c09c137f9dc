// A process that yields the CPU to the others on its machine (./priority.ts) weighs against them as much as
// its session's autogroup: Linux shares the CPU between sessions first. A script started from a shell is in
// the shell's session, whose autogroup it cannot lower without lowering the shell and all it starts later, for
// as long as the terminal lives. So a script that yields runs itself again at the head of a session of its own
// (leadOwnSession), whose autogroup is its alone to lower.
//
// The process started by the shell stays, idle, in between: it passes on the signals a terminal sends (Ctrl-C
// reaches its process group, which the copy has left) and exits with the copy's code, and the copy dies with it
// (`setpriv --pdeathsig KILL`). Where setpriv is missing, or /proc cannot say what session this is, the script
// goes on where it is, its autogroup not lowered.
import { spawn } from "node:child_process";
import os from "node:os";
import { canDieWithParent, PREFIXES } from "./prefixes";
import { sessionOf } from "./priority";

/** Set in the copy: it runs as it is, whatever its session (no copy of a copy). */
const COPY_ENV = "MARKETS_OWN_SESSION";

/** The signals passed on to the copy: those of a terminal and of a service manager's stop. */
const PASSED_ON = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Returns at once in a process that leads its session (or cannot have a copy: see above); elsewhere starts this
 * script again, the same Node options and arguments, at the head of a new session, sharing this process's
 * standard input, output and error, and never returns: this process exits with the copy's code (128 + the
 * signal's number when a signal ended it). Call it before anything else has side effects (a database started,
 * standard input read).
 */
export async function leadOwnSession(): Promise<void> {
  if (process.env[COPY_ENV] || process.platform !== "linux") return;
  const session = sessionOf(process.pid);
  if (session === undefined || session === process.pid || !canDieWithParent()) return;
  const [command, ...args] = [...PREFIXES.dieWithParent, process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const copy = spawn(command, args, { stdio: "inherit", detached: true, env: { ...process.env, [COPY_ENV]: "1" } });
  // Each kind passed on once, and this process kept alive by later ones: a terminal's Ctrl-C may reach it twice
  // (from the terminal, and relayed by tsx's own parent), and a second SIGINT would end the copy before it has
  // stopped cleanly (or this process, and the copy with it).
  const passed = new Set<string>();
  for (const signal of PASSED_ON)
    process.on(signal, () => {
      if (!passed.has(signal)) passed.add(signal), copy.kill(signal);
    });
  const code = await new Promise<number>((resolve) => {
    copy.once("error", (err) => {
      console.error(`could not start in a session of its own (${err.message})`);
      resolve(1);
    });
    copy.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
  });
  process.exit(code);
}
