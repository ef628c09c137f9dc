// Another server.ts beside the test server, for tests that need an instance (or a database) of their
// own. One node process, no npx or tsx wrapper: SIGTERM and /proc/<pid> reach server.ts itself.
import { spawn, type ChildProcess } from "node:child_process";
import postgres from "postgres";
import { freePort } from "@/lib/dev/tools";
import { testRun } from "../fixtures";

export interface Instance {
  child: ChildProcess;
  baseURL: string;
  stdout: () => string;
  /** stdout and stderr together, in arrival order. */
  output: () => string;
  /** SIGTERM, SIGKILL after 15 s (server.ts forces its own exit after 10 s); never leaves the port held. */
  stop: () => Promise<void>;
}

/** server.ts as a child process: the test process's environment, then the test defaults, then `env` (undefined removes). */
function spawnServer(env: Record<string, string | undefined>, { args = [] as string[], cwd = process.cwd(), nodeArgs = [] as string[] } = {}): ChildProcess {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    SKIP_SEED: "1",
    WARM_UP_PAGES: "0",
    NEXT_TELEMETRY_DISABLED: "1",
    RATE_LIMIT: "off",
    EXPORT_JOB: "off", // the exports spec starts its own instance with the job on
    ...env,
  };
  for (const [k, v] of Object.entries(merged)) if (v === undefined) delete merged[k];
  return spawn(process.execPath, [...nodeArgs, "--import", "tsx", "server.ts", ...args], { cwd, env: merged, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Runs server.ts expecting it to exit by itself (a start that must fail): its exit code, its output and
 * how long it ran. SIGKILL after `timeoutMs`, reported as code null.
 */
export async function runToExit(env: Record<string, string | undefined>, { timeoutMs = 60_000 } = {}) {
  return untilExit(spawnServer(env), timeoutMs);
}

/** Waits for a spawned process to exit: its exit code, its output and how long it ran. SIGKILL after `timeoutMs`, reported as code null. */
export async function untilExit(child: ChildProcess, timeoutMs: number) {
  const started = Date.now();
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(killer);
  return { code, output, ms: Date.now() - started };
}

/**
 * Starts server.ts on a free port and resolves once it is ready; rejects with its output if it exits
 * first. `env` overrides the test process's environment; an undefined value removes a variable. The rate
 * limit is off unless `env` sets RATE_LIMIT.
 */
export async function startInstance(
  env: Record<string, string | undefined>,
  {
    args = [] as string[],
    timeoutMs = 150_000,
    /** The checkout to run (its own node_modules and build); default this one. */
    cwd = process.cwd(),
    /** node options before `--import tsx` (a preload, --expose-gc). */
    nodeArgs = [] as string[],
    /** Told of each piece of stdout as it comes, before the instance is ready too. */
    onStdout = (_text: string) => {},
  } = {},
): Promise<Instance> {
  const port = await freePort();
  const child = spawnServer({ PORT: String(port), ...env }, { args, cwd, nodeArgs });
  let stdout = "";
  let output = "";
  child.stdout!.on("data", (d) => {
    stdout += d;
    output += d;
    onStdout(String(d));
  });
  child.stderr!.on("data", (d) => (output += d));
  const instance: Instance = {
    child,
    baseURL: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!output.includes("ready on")) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server.ts exited before it was ready:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await instance.stop();
      throw new Error(`server.ts was not ready in ${timeoutMs} ms:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return instance;
}

/** An empty database in the test cluster, its URL, and the admin connection that made it. */
export async function createDatabase(prefix: string) {
  const name = `${prefix}_${Date.now()}`;
  const adminUrl = new URL(testRun().databaseUrl);
  adminUrl.pathname = "/postgres";
  const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    admin,
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
