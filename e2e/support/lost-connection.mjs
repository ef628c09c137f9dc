// Run by e2e/api/connection-loss.spec.ts in its own Node process (an uncaught error ends it, not the test
// worker): a transaction loses its backend twice, once terminated by PostgreSQL and once reset on the
// network path (a TCP proxy sends RST, as a failed host does), and the pool must serve what comes after.
// Prints one line per step; the spec reads them. DB_URL names the database.
import net from "node:net";
import postgres from "postgres";

const url = new URL(process.env.DB_URL);
const within = (promise, what) => Promise.race([promise, new Promise((_, no) => setTimeout(() => no(new Error(`${what} hangs`)), 5000))]);
const settle = (promise) =>
  promise.then(
    () => "committed",
    (e) => `rejected ${e.code ?? e.message}`,
  );

const clients = new Set();
const proxy = net.createServer((client) => {
  const server = net.connect(Number(url.port), url.hostname);
  clients.add(client);
  for (const end of [client, server]) end.on("error", () => {});
  client.on("close", () => (clients.delete(client), server.destroy()));
  server.on("close", () => client.destroy());
  client.pipe(server).pipe(client);
});
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const via = new URL(url);
via.port = String(proxy.address().port);

const admin = postgres(url.href, { max: 1, onnotice: () => {} });
const cuts = {
  terminated: (pid) => admin`SELECT pg_terminate_backend(${pid})`,
  reset: () => {
    for (const client of clients) client.resetAndDestroy();
  },
};
for (const [name, cut] of Object.entries(cuts)) {
  const sql = postgres(via.href, { max: 1, onnotice: () => {} });
  const [{ pid }] = await sql`SELECT pg_backend_pid() AS pid`;
  const transaction = settle(
    sql.begin(async (tx) => {
      await tx`SELECT 1`;
      await tx`SELECT pg_sleep(5)`;
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  await cut(pid);
  console.log(`${name}: the transaction ${await within(transaction, "the transaction")}`);
  let answered = 0;
  for (let i = 0; i < 3; i++) answered += (await within(sql`SELECT 1 AS one`, "a query after"))[0].one;
  console.log(`${name}: queries after ${answered}`);
  console.log(`${name}: the next transaction ${await within(settle(sql.begin((tx) => tx`SELECT 1`)), "the next transaction")}`);
  await sql.end();
}
await admin.end();
proxy.close();
