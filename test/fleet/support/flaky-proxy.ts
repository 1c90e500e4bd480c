/**
 * The fleet's tests' misbehaving loopback proxy (drops or stalls connections
 * between a shipper and PostgreSQL). One implementation for the tests and
 * the benches: `bench/fixtures/flaky-proxy.mjs`.
 */
export { type FlakyProxy, type ProxyMode, startFlakyProxy } from "../../../bench/fixtures/flaky-proxy.mjs";
