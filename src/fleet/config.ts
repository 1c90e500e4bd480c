/**
 * Where the fleet's database is and what this machine is called, by the
 * ecosystem's conventions (docs/fleet.md): `BOULDER_FLEET_URL` (a
 * `postgres://` URL, TLS by its usual `sslmode`/`sslrootcert` parameters),
 * else the URL `boulder fleet join` recorded, else libpq's standard `PG*`
 * variables. The machine is `BOULDER_MACHINE`, else the joined name, else
 * the host name.
 *
 * Contract: `display` and `redact` are the only forms of the connection any
 * output shows: a password never appears in a log line, `why`, `doctor`, a
 * status or the dashboard.
 */
import os from "node:os";
import type { ClientConfig } from "pg";
import { BoulderError } from "../core/errors.js";
import { type FleetMember, readFleetMember } from "../state/fleet-files.js";

export interface FleetSettings {
	/** Whether this machine ships at all (a URL in the environment, or joined). */
	enabled: boolean;
	machine: string;
	/** Where the connection comes from, for `fleet status`. */
	source: "BOULDER_FLEET_URL" | "joined" | "PG variables" | "none";
	/** The connection, with its password redacted: safe to print. */
	display: string;
	/** What `pg` connects with. Contract: never printed. */
	client: ClientConfig;
	/** The password in use, so that any message can be scrubbed of it. */
	secrets: string[];
}

type Env = Record<string, string | undefined>;

export async function fleetSettings(env: Env): Promise<FleetSettings> {
	return settingsFrom(env, await readFleetMember(env));
}

/** Pure over its inputs: the environment and the membership file. */
export function settingsFrom(env: Env, member: FleetMember | null): FleetSettings {
	const machine = machineName(env, member);
	const off = env.BOULDER_FLEET === "off";
	const url = env.BOULDER_FLEET_URL || member?.url || null;
	if (url) {
		const source = env.BOULDER_FLEET_URL ? "BOULDER_FLEET_URL" : "joined";
		const parsed = parseUrl(url, source);
		const secrets = parsed.password ? [decodeURIComponent(parsed.password), parsed.password] : [];
		return { enabled: !off, machine, source, display: redactUrl(url), client: { connectionString: url }, secrets };
	}
	if (member) {
		const client = pgEnvConfig(env);
		return {
			enabled: !off,
			machine,
			source: "PG variables",
			display: pgEnvDisplay(env),
			client,
			secrets: env.PGPASSWORD ? [env.PGPASSWORD] : [],
		};
	}
	return { enabled: false, machine, source: "none", display: "(not in a fleet)", client: {}, secrets: [] };
}

export function machineName(env: Env, member: FleetMember | null): string {
	const name = env.BOULDER_MACHINE?.trim() || member?.machine || os.hostname();
	return name.slice(0, 200);
}

function parseUrl(url: string, source: string): URL {
	try {
		const parsed = new URL(url);
		if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") throw new Error("not postgres");
		return parsed;
	} catch {
		throw new BoulderError(
			"config-invalid",
			`${source}: expected a postgres:// URL (postgres://user@host:5432/db?sslmode=require), got "${redactUrl(url)}"`,
		);
	}
}

/** `postgres://me:secret@db/x` → `postgres://me:***@db/x`; anything unparsable loses everything after the scheme's user. */
export function redactUrl(url: string): string {
	try {
		const parsed = new URL(url);
		if (parsed.password) parsed.password = "***";
		for (const key of [...parsed.searchParams.keys()]) {
			if (/pass|secret|key/i.test(key) && key !== "sslkey") parsed.searchParams.set(key, "***");
		}
		return parsed.toString();
	} catch {
		return url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@");
	}
}

/** Any text with the passwords in use (and any URL's password) replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
	let out = text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*):[^@\s]*@/g, "$1:***@");
	for (const secret of secrets) if (secret) out = out.split(secret).join("***");
	return out;
}

/** libpq's variables, read from the given environment (not only `process.env`). */
function pgEnvConfig(env: Env): ClientConfig {
	const config: ClientConfig = {};
	if (env.PGHOST) config.host = env.PGHOST;
	if (env.PGPORT) config.port = Number(env.PGPORT);
	if (env.PGUSER) config.user = env.PGUSER;
	if (env.PGPASSWORD) config.password = env.PGPASSWORD;
	if (env.PGDATABASE) config.database = env.PGDATABASE;
	if (env.PGSSLMODE && env.PGSSLMODE !== "disable") {
		config.ssl = env.PGSSLMODE === "verify-full" || env.PGSSLMODE === "verify-ca" ? {} : { rejectUnauthorized: false };
	}
	return config;
}

function pgEnvDisplay(env: Env): string {
	const user = env.PGUSER ?? os.userInfo().username;
	const host = env.PGHOST ?? "localhost";
	const port = env.PGPORT ?? "5432";
	const db = env.PGDATABASE ?? user;
	return `PG variables: ${user}@${host}:${port}/${db}${env.PGSSLMODE ? ` sslmode=${env.PGSSLMODE}` : ""}${env.PGPASSWORD ? " (password from PGPASSWORD)" : ""}`;
}
