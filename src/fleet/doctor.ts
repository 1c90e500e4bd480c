/**
 * `boulder doctor`'s fleet check (docs/fleet.md): whether this machine is
 * in a fleet, whether its database answers (a short time-out: the doctor
 * must not hang on a black-holed network), the schema version there, and
 * what waits to be shipped here. Only reads: it connects without migrating.
 *
 * Contract: no message holds a credential; the connection is shown as
 * `FleetSettings.display` and every error goes through `redact`.
 */
import type { DoctorCheck, DoctorContext, DoctorFinding } from "../engine/doctor-types.js";
import { readShipperStatus } from "../state/fleet-files.js";
import { fleetSettings, redact } from "./config.js";
import { closeFleet, connectFleet, type Db, messageOf } from "./db.js";
import { FLEET_SCHEMA_VERSION, schemaVersion } from "./schema.js";
import { readBacklog } from "./shipper.js";

const CHECK = "fleet";
/** How long the doctor waits for the fleet's database. */
export const DOCTOR_CONNECT_MS = 3_000;

export const fleetCheck: DoctorCheck = {
	name: CHECK,
	async run(context) {
		const { env } = context;
		let settings: Awaited<ReturnType<typeof fleetSettings>>;
		try {
			settings = await fleetSettings(env);
		} catch (error) {
			// A bad BOULDER_FLEET_URL or membership file: its message is already redacted.
			return [
				{
					check: CHECK,
					level: "problem",
					message: messageOf(error),
					fix: "fix BOULDER_FLEET_URL, or run `boulder fleet join URL` again",
				},
			];
		}
		if (!settings.enabled) {
			const message =
				settings.source === "none"
					? "not in a fleet (no BOULDER_FLEET_URL, not joined)"
					: `in a fleet (${settings.display}) but turned off by BOULDER_FLEET=off`;
			return [{ check: CHECK, level: "ok", message, fix: null }];
		}
		const findings: DoctorFinding[] = [];
		const where = `${settings.display} (from ${settings.source}), as machine "${settings.machine}"`;
		let db: Db | null = null;
		try {
			db = await connectFleet(settings, { migrate: false, connectTimeoutMs: DOCTOR_CONNECT_MS });
			const version = await schemaVersion(db);
			findings.push(schemaFinding(version, where));
		} catch (error) {
			findings.push({
				check: CHECK,
				level: "problem",
				message: redact(messageOf(error), settings.secrets),
				fix: "check that PostgreSQL runs there and the URL or PG* variables are right; hooks keep working meanwhile and records wait here",
			});
		} finally {
			await closeFleet(db);
		}
		findings.push(await backlogFinding(context, settings.secrets));
		return findings;
	},
};

function schemaFinding(version: number, where: string): DoctorFinding {
	if (version > FLEET_SCHEMA_VERSION) {
		return {
			check: CHECK,
			level: "problem",
			message: `reachable: ${where}; its schema version ${version} is newer than this boulder knows (${FLEET_SCHEMA_VERSION}): nothing is shipped`,
			fix: "upgrade boulder on this machine",
		};
	}
	if (version < FLEET_SCHEMA_VERSION) {
		const what = version === 0 ? "no boulder tables yet" : `schema version ${version}`;
		return {
			check: CHECK,
			level: "ok",
			message: `reachable: ${where}; ${what}: the next shipper brings it to ${FLEET_SCHEMA_VERSION}`,
			fix: null,
		};
	}
	return { check: CHECK, level: "ok", message: `reachable: ${where}; schema version ${version}`, fix: null };
}

async function backlogFinding(context: DoctorContext, secrets: readonly string[]): Promise<DoctorFinding> {
	const [backlog, status] = await Promise.all([readBacklog(context.env), readShipperStatus(context.env)]);
	const lost = backlog.worktrees.reduce((sum, one) => sum + one.lost, 0);
	const parts = [`${backlog.total} record${backlog.total === 1 ? "" : "s"} not yet shipped`];
	if (lost > 0) parts.push(`${lost} lost to log rotation before they were shipped`);
	const failing = status.failures > 0 && status.lastError !== null;
	if (failing && status.lastError) parts.push(`the last shipper failed: ${redact(status.lastError.message, secrets)}`);
	const stuck = backlog.total > 0 && failing;
	return {
		check: CHECK,
		level: stuck ? "warn" : "ok",
		message: `backlog: ${parts.join("; ")}`,
		fix: stuck ? "`boulder fleet ship` ships now and says why it cannot" : null,
	};
}
