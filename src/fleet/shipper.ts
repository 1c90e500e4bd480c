/**
 * The shipper (docs/fleet.md): reads each worktree's decision log as its
 * outbox, from its cursor, and inserts the records with their stable keys
 * (`ON CONFLICT DO NOTHING`), then moves the cursor. A crash between the two
 * ships the same lines again under the same keys: at-least-once delivery,
 * exactly one row per record. It also sends each worktree's status snapshot
 * when it changed, and applies the remote commands addressed to this machine.
 *
 * One runs per machine (the shipper lock). Started detached by the hook
 * (`engine/fleet-kick.ts`), it lingers a little after catching up, listening
 * for commands, then exits; `boulder fleet ship` runs one pass in the
 * foreground.
 */
import { createHash } from "node:crypto";
import { readWorktreeStatus, type WorktreeStatusView } from "../engine/status.js";
import { findProject, projectStore } from "../engine/worktree.js";
import {
	freshCursor,
	readOutbox,
	readShipCursor,
	readShipperStatus,
	type ShipCursor,
	ShipperBusy,
	withShipperLock,
	worktreeId,
	writeShipCursor,
	writeShipperStatus,
} from "../state/fleet-files.js";
import { type Clock, systemClock } from "../state/store.js";
import { readWorktreeList } from "../state/worktree-index.js";
import { applyCommand, type FleetCommand } from "./apply.js";
import { type FleetSettings, redact } from "./config.js";
import { closeFleet, connectFleet, type Db, messageOf } from "./db.js";
import { createOtelSink, type OtelSink, otelEnabled } from "./otel.js";
import { INSERT_DECISIONS } from "./schema.js";
import { summarize, summaryColumns } from "./summary.js";

type Env = NodeJS.ProcessEnv;

/** Records inserted per statement. */
export const BATCH = 500;
/** A detached shipper stays this long after its last work, listening for commands. */
export const DEFAULT_LINGER_MS = 20_000;
/** While lingering, it looks for new records this often (a notification wakes it sooner for commands). */
export const POLL_MS = 500;
/** The hook's back-off after a failure: base × 2^(failures-1), capped. */
export const RETRY_BASE_MS = 5_000;
export const RETRY_MAX_MS = 5 * 60_000;

/** The channels of the doorbell: new rows for the fleet view, new commands for a machine. */
export const CHANNEL_ROWS = "boulder_fleet";
export const CHANNEL_COMMANDS = "boulder_fleet_commands";

export interface PassResult {
	shipped: number;
	skipped: number;
	snapshots: number;
	commands: number;
	/** A worktree had more than a batch waiting. */
	more: boolean;
}

export interface ShipOptions {
	env: Env;
	settings: FleetSettings;
	clock?: Clock;
	/** 0: one pass until caught up (the foreground `boulder fleet ship`). */
	lingerMs?: number;
	pollMs?: number;
	batch?: number;
	/** Ends a lingering shipper early (tests, signals). */
	signal?: AbortSignal;
	/** For the fault benches: called after a batch is inserted and before its cursor moves. */
	afterInsert?: () => Promise<void> | void;
}

export interface ShipResult extends PassResult {
	passes: number;
	/** Records exported to OpenTelemetry (when it is on). */
	exported: number;
}

export interface ShipContext {
	db: Db;
	env: Env;
	machine: string;
	clock: Clock;
	batch: number;
	afterInsert?: () => Promise<void> | void;
}

/**
 * Runs the shipper under its lock. Contract: throws `ShipperBusy` when
 * another runs; records success or the (redacted) failure and the back-off
 * in the shipper's status file; rethrows the failure.
 */
export async function runShipper(options: ShipOptions): Promise<ShipResult> {
	const clock = options.clock ?? systemClock;
	const { env, settings } = options;
	return withShipperLock(env, async (lost) => {
		const status = await readShipperStatus(env, clock);
		const total: ShipResult = {
			shipped: 0,
			skipped: 0,
			snapshots: 0,
			commands: 0,
			more: false,
			passes: 0,
			exported: 0,
		};
		let db: Db | null = null;
		let otel: OtelSink | null = null;
		try {
			if (otelEnabled(env)) otel = createOtelSink(settings.machine, env.npm_package_version ?? "", env);
			if (settings.enabled) db = await connectFleet(settings);
			const ctx: ShipContext | null = db
				? {
						db,
						env,
						machine: settings.machine,
						clock,
						batch: options.batch ?? BATCH,
						...(options.afterInsert ? { afterInsert: options.afterInsert } : {}),
					}
				: null;
			let rung = false;
			if (db) {
				await db.query(
					`INSERT INTO boulder_machines (machine, boulder_version) VALUES ($1, $2)
					 ON CONFLICT (machine) DO UPDATE SET last_seen = now(), boulder_version = EXCLUDED.boulder_version`,
					[settings.machine, env.npm_package_version ?? null],
				);
				db.on("notification", (message) => {
					if (message.channel === CHANNEL_COMMANDS && message.payload === settings.machine) rung = true;
				});
			}
			const linger = options.lingerMs ?? 0;
			if (db && linger > 0) await db.query(`LISTEN ${CHANNEL_COMMANDS}`);
			let idleSince = clock.now();
			for (;;) {
				if (lost() || options.signal?.aborted) break;
				rung = false;
				const pass = ctx ? await shipPass(ctx) : { shipped: 0, skipped: 0, snapshots: 0, commands: 0, more: false };
				const exported = otel ? await exportPass(env, otel, clock, options.batch ?? BATCH) : null;
				total.passes++;
				total.shipped += pass.shipped;
				total.skipped += pass.skipped;
				total.snapshots += pass.snapshots;
				total.commands += pass.commands;
				total.exported += exported?.exported ?? 0;
				if (pass.shipped > 0 || pass.snapshots > 0 || pass.commands > 0) {
					await db?.query("SELECT pg_notify($1, $2)", [CHANNEL_ROWS, settings.machine]);
					idleSince = clock.now();
				}
				if ((exported?.exported ?? 0) > 0) idleSince = clock.now();
				if (pass.more || exported?.more) continue;
				if (linger <= 0 || clock.now() - idleSince >= linger) break;
				await waitFor(() => rung || Boolean(options.signal?.aborted), options.pollMs ?? POLL_MS);
			}
			const now = clock.now();
			await writeShipperStatus(env, {
				...status,
				lastRunAt: now,
				lastShippedAt: total.shipped > 0 ? now : status.lastShippedAt,
				retryAt: null,
				failures: 0,
			});
			return total;
		} catch (error) {
			const failures = status.failures + 1;
			const now = clock.now();
			await writeShipperStatus(env, {
				...status,
				lastRunAt: now,
				lastError: { at: now, message: redact(messageOf(error), settings.secrets) },
				failures,
				retryAt: now + Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1)),
			});
			throw error;
		} finally {
			await closeFleet(db);
			await otel?.close().catch(() => {});
		}
	});
}

/**
 * One pass of the OpenTelemetry export: every worktree's new records, from
 * its own cursor, emitted and flushed before the cursor moves
 * (at-least-once: a shipper killed between the two sends them again).
 */
export async function exportPass(
	env: Env,
	otel: OtelSink,
	clock: Clock,
	batch: number,
): Promise<{ exported: number; more: boolean }> {
	const { entries } = await readWorktreeList({ env, clock });
	let exported = 0;
	let more = false;
	const moved: ShipCursor[] = [];
	for (const entry of entries) {
		const store = projectStore(findProject(entry.root), env, { clock });
		const cursor = (await readShipCursor(env, entry.root, clock, "otel")) ?? freshCursor(entry.root);
		const read = readOutbox(store.paths.decisions, cursor, batch);
		for (const line of read.lines) {
			if (!line.record) continue;
			otel.emit(line.record);
			exported++;
		}
		more ||= read.more;
		if (read.lines.length > 0 || read.next.epoch !== cursor.epoch) moved.push(read.next);
	}
	if (exported > 0) await otel.flush();
	for (const cursor of moved) await writeShipCursor(env, cursor, "otel");
	return { exported, more };
}

export { ShipperBusy };

/** Waits until `done()` or `ms` pass, looking every 20 ms (a notification sets what `done` reads). */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
	const until = Date.now() + ms;
	while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** One pass: the pending commands first (a stop should not wait behind a backlog), then every worktree. */
export async function shipPass(ctx: ShipContext): Promise<PassResult> {
	const result: PassResult = { shipped: 0, skipped: 0, snapshots: 0, commands: await applyPending(ctx), more: false };
	const { entries } = await readWorktreeList({ env: ctx.env, clock: ctx.clock });
	for (const entry of entries) {
		const one = await shipWorktree(ctx, entry.root);
		result.shipped += one.shipped;
		result.skipped += one.skipped;
		result.snapshots += one.snapshot ? 1 : 0;
		result.more ||= one.more;
	}
	return result;
}

export async function shipWorktree(
	ctx: ShipContext,
	root: string,
): Promise<{ shipped: number; skipped: number; snapshot: boolean; more: boolean }> {
	const store = projectStore(findProject(root), ctx.env, { clock: ctx.clock });
	let cursor: ShipCursor = (await readShipCursor(ctx.env, root, ctx.clock)) ?? (await resumedCursor(ctx, root));
	const id = worktreeId(root);
	const read = readOutbox(store.paths.decisions, cursor, ctx.batch);
	const rows = read.lines.filter((line) => line.record !== null);
	if (rows.length > 0) {
		await ctx.db.query(INSERT_DECISIONS, [
			ctx.machine,
			id,
			rows.map((line) => line.key),
			rows.map((line) => line.seq),
			rows.map((line) => line.record?.at ?? 0),
			rows.map((line) => line.record?.kind ?? ""),
			rows.map((line) => line.record?.reason ?? ""),
			rows.map((line) => line.record?.harness ?? null),
			rows.map((line) => line.record?.session ?? null),
			rows.map((line) => line.record?.work ?? null),
			rows.map((line) => JSON.stringify(line.record)),
		]);
		await ctx.afterInsert?.();
	}
	cursor = read.next;
	let snapshot = false;
	if (rows.length > 0 || cursor.snapshotHash === null) {
		const now = ctx.clock.now();
		const view = await readWorktreeStatus(store, { now, env: ctx.env });
		const text = JSON.stringify(view);
		const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
		if (hash !== cursor.snapshotHash) {
			await storeSnapshot(ctx.db, { machine: ctx.machine, id, root: store.worktree, view, text, now });
			cursor = { ...cursor, snapshotHash: hash };
			snapshot = true;
		}
	}
	if (read.lines.length > 0 || snapshot || cursor.epoch !== read.next.epoch) await writeShipCursor(ctx.env, cursor);
	return { shipped: rows.length, skipped: read.lines.length - rows.length, snapshot, more: read.more };
}

/**
 * Stores a worktree's status snapshot with its summary (the fleet-wide
 * view's row) and the states and harnesses in it, in one statement.
 */
export async function storeSnapshot(
	db: Db,
	{
		machine,
		id,
		root,
		view,
		text,
		now,
	}: { machine: string; id: string; root: string; view: WorktreeStatusView; text: string; now: number },
): Promise<void> {
	const summary = summarize(view);
	const { states, harnesses } = summaryColumns(summary);
	await db.query(
		`INSERT INTO boulder_worktrees (machine, worktree_id, root, snapshot, snapshot_at, summary, states, harnesses)
		 VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7::text[], $8::text[])
		 ON CONFLICT (machine, worktree_id) DO UPDATE SET root = EXCLUDED.root, snapshot = EXCLUDED.snapshot,
		   snapshot_at = EXCLUDED.snapshot_at, summary = EXCLUDED.summary, states = EXCLUDED.states,
		   harnesses = EXCLUDED.harnesses, shipped_at = now()`,
		[machine, id, root, text, now, JSON.stringify(summary), states, harnesses],
	);
}

/**
 * A worktree without a cursor (first shipment, or the cursor file was lost):
 * reading starts at the oldest record kept, whose keys dedupe whatever was
 * shipped before, and the sequence continues after the highest shipped.
 */
async function resumedCursor(ctx: ShipContext, root: string): Promise<ShipCursor> {
	const row = await ctx.db.query<{ next: string | null }>(
		"SELECT max(seq) + 1 AS next FROM boulder_decisions WHERE machine = $1 AND worktree_id = $2",
		[ctx.machine, worktreeId(root)],
	);
	return { ...freshCursor(root), seq: Number(row.rows[0]?.next ?? 0) };
}

/** Applies the pending commands for this machine, oldest first; returns how many were settled. */
export async function applyPending(ctx: ShipContext): Promise<number> {
	const pending = await ctx.db.query<{
		id: string;
		action: FleetCommand["action"];
		target_kind: FleetCommand["targetKind"];
		target: string | null;
		harness: string | null;
		from_machine: string;
		expired: boolean;
	}>(
		`SELECT id, action, target_kind, target, harness, from_machine, (expires_at IS NOT NULL AND expires_at < now()) AS expired
		 FROM boulder_commands WHERE machine = $1 AND state = 'pending' ORDER BY id`,
		[ctx.machine],
	);
	for (const row of pending.rows) {
		const settled = row.expired
			? { state: "expired" as const, result: "expired before this machine came back; not applied" }
			: await applyCommand(
					{
						id: row.id,
						action: row.action,
						targetKind: row.target_kind,
						target: row.target,
						harness: row.harness,
						fromMachine: row.from_machine,
					},
					ctx.env,
					ctx.clock,
				).catch((error: unknown) => ({ state: "failed" as const, result: messageOf(error) }));
		await ctx.db.query(
			"UPDATE boulder_commands SET state = $2, result = $3, applied_at = now() WHERE id = $1 AND state = 'pending'",
			[row.id, settled.state, settled.result],
		);
	}
	return pending.rows.length;
}

export interface Backlog {
	total: number;
	worktrees: { root: string; id: string; backlog: number; lost: number }[];
}

/** Records not yet shipped, per worktree: read from the logs and cursors alone, no network. */
export async function readBacklog(env: Env, clock: Clock = systemClock): Promise<Backlog> {
	const { entries } = await readWorktreeList({ env, clock });
	const worktrees: Backlog["worktrees"] = [];
	for (const entry of entries) {
		const store = projectStore(findProject(entry.root), env, { clock });
		const cursor = (await readShipCursor(env, entry.root, clock)) ?? freshCursor(entry.root);
		const read = readOutbox(store.paths.decisions, cursor, Number.POSITIVE_INFINITY);
		const backlog = read.lines.filter((line) => line.record !== null).length;
		worktrees.push({ root: entry.root, id: worktreeId(entry.root), backlog, lost: read.next.lost });
	}
	return { total: worktrees.reduce((sum, one) => sum + one.backlog, 0), worktrees };
}
