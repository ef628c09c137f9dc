import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError, isConnectionFailure, isDatabaseUnavailable, isLostSession, isReplicaFailure } from "./errors";

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe("isDatabaseUnavailable – away or overloaded means 503, anything else is a bug", () => {
  it.each([
    ["ECONNREFUSED", true, true],
    ["ECONNRESET", true, true],
    ["CONNECT_TIMEOUT", true, true],
    ["CONNECTION_CLOSED", true, true],
    ["CONNECTION_DESTROYED", true, true],
    ["57P01", true, true], // admin_shutdown (pg_ctl stop)
    ["57P03", true, true], // cannot_connect_now (starting up)
    ["53300", true, true], // too_many_connections
    ["08006", true, true], // connection_failure
    ["57014", true, false], // statement_timeout: this query, not the database
    ["55P03", true, false], // lock_timeout
    ["42P01", false, false], // undefined_table: a bug
    ["23505", false, false], // unique_violation
    ["22P02", false, false], // invalid_text_representation
  ])("%s → unavailable %s, connection failure %s", (code, unavailable, connection) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(unavailable);
    expect(isConnectionFailure(withCode(code))).toBe(connection);
  });

  it("a plain error, null and a string are not", () => {
    for (const e of [new Error("boom"), null, undefined, "ECONNREFUSED"]) expect(isDatabaseUnavailable(e)).toBe(false);
  });

  it("the domain error is", () => expect(isDatabaseUnavailable(new DatabaseUnavailableError("x"))).toBe(true));
});

describe("isLostSession and isReplicaFailure – which failed loads run once more (lib/db/breaker.ts)", () => {
  it.each([
    ["CONNECTION_CLOSED", true, true], // the socket closed under a query (pg_terminate_backend, a restarted server)
    ["ECONNRESET", true, true],
    ["57P01", true, true], // admin_shutdown, also replayed by postgres.js onto the next session (porsager/postgres#1223)
    ["57P05", true, true], // idle_session_timeout
    ["ECONNREFUSED", false, true], // no session was made: the primary is away; a replica may be
    ["CONNECT_TIMEOUT", false, true],
    ["57P03", false, true], // starting up
    ["CONNECTION_ENDED", false, true], // our own pool was ended (shutdown): never retried on the primary
    ["40001", false, true], // canceling statement due to conflict with recovery (a hot standby)
    ["40P01", false, true], // a standby's buffer-pin deadlock
    ["57014", false, false], // statement_timeout: the same query would time out again
    ["55P03", false, false],
    ["42P01", false, false],
  ])("%s → lost session %s, replica failure %s", (code, lost, replica) => {
    expect(isLostSession(withCode(code))).toBe(lost);
    expect(isReplicaFailure(withCode(code))).toBe(replica);
  });
});

describe("isDatabaseUnavailable – across bundles", () => {
  it("recognises a DatabaseUnavailableError thrown by another copy of the class (another Next bundle)", () => {
    class DatabaseUnavailableError extends Error {
      override name = "DatabaseUnavailableError";
    }
    expect(isDatabaseUnavailable(new DatabaseUnavailableError("away"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("away"))).toBe(false);
  });
});
