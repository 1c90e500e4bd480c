/**
 * The fleet's tests' throwaway PostgreSQL: `initdb` in a temp folder,
 * `pg_ctl start` on a free loopback port, stopped and removed at the end.
 * One implementation for the tests and the benches: `bench/fixtures/pg-cluster.mjs`.
 */
export { freePort, type PgCluster, postgresBin, startPgCluster } from "../../../bench/fixtures/pg-cluster.mjs";
