// The reference servers (targets/bare.mjs, targets/postgraphile.mjs) as child processes of the run: started
// on the app's database, ready once they answer, stopped at the end whatever happened.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const READY = {
  bare: { file: "targets/bare.mjs", probe: (origin) => fetch(`${origin}/health`) },
  postgraphile: {
    file: "targets/postgraphile.mjs",
    probe: (origin) => fetch(`${origin}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"query":"{__typename}"}' }),
  },
};

/** A started reference: its origin, pid (for the CPU column) and how to stop it. */
export async function startReference(name, { port, databaseUrl, timeoutMs = 120_000 }) {
  const { file, probe } = READY[name];
  const child = spawn(process.execPath, [file], {
    cwd: BENCH,
    // Its sessions by name (postgres.js and node-postgres read PGAPPNAME): what src/drain.mjs waits for.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), PGAPPNAME: `bench-${name}` },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    if ((await Promise.race([exited.then(() => true), sleep(5000)])) !== true) child.kill("SIGKILL");
  };
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} before it was ready`);
    try {
      if ((await probe(origin)).ok) return { name, origin, pid: child.pid, stop };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`${name} was not ready after ${timeoutMs / 1000} s`);
}
