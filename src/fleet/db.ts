/**
 * The one door to PostgreSQL: `pg` loaded when a fleet command or the
 * shipper first connects (never on the hook's path), a client that gives up
 * quickly when the server is down, and errors scrubbed of passwords.
 */
import { createRequire } from "node:module";
import type { Client, ClientConfig } from "pg";
import { BoulderError } from "../core/errors.js";
import { type FleetSettings, redact } from "./config.js";
import { migrate } from "./schema.js";

export type Db = Client;

/** How long a connection attempt may take before the shipper backs off. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * `pg` asks, as it loads, whether it runs on Cloudflare Workers: where
 * `navigator` is not defined (Node 20) it builds a `Response` to find out,
 * which makes Node load and compile its whole `fetch` (undici), a good part
 * of a fleet command's start. Newer Node defines `navigator.userAgent`; it is
 * set the same way for the load alone, and taken away again.
 */
function pgModule(): typeof import("pg") {
	const scope = globalThis as { navigator?: unknown };
	const shim = scope.navigator === undefined;
	if (shim) scope.navigator = { userAgent: `Node.js/${process.versions.node}` };
	try {
		return createRequire(import.meta.url)("pg") as typeof import("pg");
	} finally {
		if (shim) delete scope.navigator;
	}
}

/**
 * Connects and brings the schema up to date. Contract: throws
 * `BoulderError("fleet-unreachable")` with a redacted message when the
 * server cannot be reached, and `fleet-schema-newer` when the database was
 * set up by a newer boulder.
 */
export async function connectFleet(settings: FleetSettings, options: { migrate?: boolean } = {}): Promise<Db> {
	const { Client } = pgModule();
	const config: ClientConfig = {
		...settings.client,
		connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
		application_name: `boulder ${settings.machine}`.slice(0, 63),
	};
	const client = new Client(config);
	client.on("error", () => {
		// A dropped connection surfaces on the next query, which the caller handles.
	});
	try {
		await client.connect();
	} catch (error) {
		await client.end().catch(() => {});
		throw new BoulderError(
			"fleet-unreachable",
			`cannot reach the fleet's database (${settings.display}): ${redact(messageOf(error), settings.secrets)}`,
			{ cause: error },
		);
	}
	if (options.migrate !== false) {
		try {
			await migrate(client);
		} catch (error) {
			await client.end().catch(() => {});
			throw error;
		}
	}
	return client;
}

export function messageOf(error: unknown): string {
	if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join("; ");
	if (error instanceof Error) return error.message || error.name;
	return String(error);
}
