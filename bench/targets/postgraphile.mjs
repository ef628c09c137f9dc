// The PostGraphile target: what a team might run instead of writing an API of its own. PostGraphile 5
// as a library, Amber preset, over schema "public" of the same database, served by grafserv on node:http
// at POST /graphql; GraphiQL, watch mode and explain off, production mode (Grafast skips its dev checks).
//   DATABASE_URL=postgres://… PORT=4002 PG_POOL=10 node targets/postgraphile.mjs
process.env.GRAPHILE_ENV ??= "production";
process.env.NODE_ENV ??= "production";

// PostGraphile 5 and Grafast declare Node >= 22; on Node 20 the one API they miss is Promise.withResolvers
// (every query would fail on it). Polyfilled by the specification's steps when absent, and said at start.
const polyfilled = typeof Promise.withResolvers !== "function";
if (polyfilled) {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

const { createServer } = await import("node:http");
const { postgraphile } = await import("postgraphile");
const { PostGraphileAmberPreset } = await import("postgraphile/presets/amber");
const { makePgService } = await import("postgraphile/adaptors/pg");
const { grafserv } = await import("postgraphile/grafserv/node");

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("[postgraphile] DATABASE_URL is required");
  process.exit(2);
}
const port = Number(process.env.PORT ?? 4002);
const pool = Number(process.env.PG_POOL ?? 10);

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  pgServices: [
    makePgService({
      connectionString: url,
      schemas: ["public"],
      // Idle connections stay open while the other targets run, as postgres.js keeps them in bare
      // (node-postgres closes them after 10 s by default).
      poolConfig: { max: pool, idleTimeoutMillis: 0 },
    }),
  ],
  grafserv: { port, host: "127.0.0.1", graphqlPath: "/graphql", graphiql: false, watch: false },
  grafast: { explain: false },
});

const server = createServer();
// Longer than autocannon's idle gaps, so the connections of one slot stay open through it.
server.keepAliveTimeout = 65_000;
server.on("error", (err) => {
  console.error("[postgraphile]", err);
  process.exit(1);
});
await pgl.createServ(grafserv).addTo(server);
await pgl.getSchema(); // built before the first request, not during the first slot
server.listen(port, "127.0.0.1", () =>
  console.error(
    `[postgraphile] http://127.0.0.1:${port}/graphql (pool ${pool}, node ${process.version}${polyfilled ? ", Promise.withResolvers polyfilled" : ""})`,
  ),
);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  await Promise.resolve(pgl.release()).catch(() => {}); // releases the server and the pool too
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
