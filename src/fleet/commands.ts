/**
 * Remote control, the sender's side: a command is a row in
 * `boulder_commands` and a notification on the target's channel. The target
 * applies it (`apply.ts`) the next time its shipper runs; `stop` and
 * `pause` wait for a machine that is offline however long it takes, `go`
 * and `resume` expire after an hour (an agent is never restarted on a stale
 * request). See docs/fleet.md for the guarantee.
 */
import type { FleetAction, TargetKind } from "./apply.js";
import type { Db } from "./db.js";
import { CHANNEL_COMMANDS } from "./shipper.js";

export const GO_EXPIRES_MS = 60 * 60_000;

export interface PostCommand {
	machine: string;
	action: FleetAction;
	targetKind: TargetKind;
	target: string | null;
	harness: string | null;
	fromMachine: string;
}

export interface CommandRow {
	id: string;
	machine: string;
	action: FleetAction;
	targetKind: TargetKind;
	target: string | null;
	state: "pending" | "applied" | "failed" | "expired";
	result: string | null;
	createdAt: number;
	appliedAt: number | null;
}

export async function postCommand(db: Db, command: PostCommand): Promise<CommandRow> {
	const expires = command.action === "go" || command.action === "resume" ? GO_EXPIRES_MS : null;
	const inserted = await db.query<{ id: string }>(
		`INSERT INTO boulder_commands (machine, action, target_kind, target, harness, from_machine, expires_at)
		 VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::bigint IS NULL THEN NULL ELSE now() + ($7::bigint * interval '1 millisecond') END)
		 RETURNING id`,
		[
			command.machine,
			command.action,
			command.targetKind,
			command.target,
			command.harness,
			command.fromMachine,
			expires,
		],
	);
	const id = inserted.rows[0]?.id as string;
	await db.query("SELECT pg_notify($1, $2)", [CHANNEL_COMMANDS, command.machine]);
	return (await readCommand(db, id)) as CommandRow;
}

export async function readCommand(db: Db, id: string): Promise<CommandRow | null> {
	const rows = await db.query<{
		id: string;
		machine: string;
		action: FleetAction;
		target_kind: TargetKind;
		target: string | null;
		state: CommandRow["state"];
		result: string | null;
		created_at: Date;
		applied_at: Date | null;
	}>("SELECT * FROM boulder_commands WHERE id = $1", [id]);
	const row = rows.rows[0];
	if (!row) return null;
	return {
		id: row.id,
		machine: row.machine,
		action: row.action,
		targetKind: row.target_kind,
		target: row.target,
		state: row.state,
		result: row.result,
		createdAt: row.created_at.getTime(),
		appliedAt: row.applied_at ? row.applied_at.getTime() : null,
	};
}

/** Whether the machine ever shipped: a command to an unknown name is refused (a typo must not wait forever). */
export async function machineKnown(db: Db, machine: string): Promise<boolean> {
	const rows = await db.query("SELECT 1 FROM boulder_machines WHERE machine = $1", [machine]);
	return (rows.rowCount ?? 0) > 0;
}
