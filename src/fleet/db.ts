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
 * How long one query may take. A network that black-holes packets leaves a
 * query waiting for TCP's own time-out (many minutes) while the shipper
 * holds the machine's lock; past this the query fails, the shipper records
 * the error and backs off, and the next one starts afresh. A batch of 500
 * rows takes milliseconds.
 */
export const QUERY_TIMEOUT_MS = 60_000;
/** How long closing a connection may wait for the server (a stalled one never answers). */
export const CLOSE_TIMEOUT_MS = 2_000;

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
export async function connectFleet(
	settings: FleetSettings,
	options: { migrate?: boolean; connectTimeoutMs?: number } = {},
): Promise<Db> {
	const { Client } = pgModule();
	const config: ClientConfig = {
		...settings.client,
		connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
		query_timeout: QUERY_TIMEOUT_MS,
		keepAlive: true,
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

/** Ends a connection, waiting at most `CLOSE_TIMEOUT_MS` (then the socket is dropped). Never throws. */
export async function closeFleet(db: Db | null | undefined): Promise<void> {
	if (!db) return;
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<"late">((resolve) => {
		timer = setTimeout(() => resolve("late"), CLOSE_TIMEOUT_MS);
		timer.unref?.();
	});
	const ended = await Promise.race([
		db.end().then(
			() => "ended" as const,
			() => "ended" as const,
		),
		late,
	]);
	clearTimeout(timer);
	if (ended === "late")
		(db as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export function messageOf(error: unknown): string {
	if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join("; ");
	if (error instanceof Error) return error.message || error.name;
	return String(error);
}
