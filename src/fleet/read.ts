/**
 * The fleet view's read model (`boulder status --fleet`, `boulder ui
 * --fleet`): every machine with its worktrees' status snapshots, as the
 * shippers last sent them, filtered by machine, state and harness. The
 * snapshots are the local `boulder status` views, so the words match.
 *
 * Contract: reads only; one query per table.
 */
import type { WorktreeStatusView } from "../engine/status.js";
import type { Db } from "./db.js";
import { type FleetState, sessionState, workState } from "./fleet-state.js";

export interface FleetFilter {
	machine?: string;
	state?: FleetState;
	harness?: string;
}

export interface FleetWorktreeView {
	id: string;
	root: string;
	/** When the machine took this snapshot (its clock). */
	snapshotAt: number;
	/** Per work id and per list session, the fleet state. */
	states: { works: Record<string, FleetState>; sessions: Record<string, FleetState> };
	view: WorktreeStatusView;
}

export interface FleetMachineView {
	machine: string;
	/** When its shipper last connected (the database's clock), ms. */
	lastSeen: number;
	worktrees: FleetWorktreeView[];
	/** Remote commands not yet applied there. */
	pendingCommands: number;
}

export interface FleetReport {
	now: number;
	machines: FleetMachineView[];
	/** How many of each state across what is shown. */
	counts: Record<FleetState, number>;
}

export async function readFleet(db: Db, filter: FleetFilter, now: number): Promise<FleetReport> {
	const machines = await db.query<{ machine: string; last_seen: Date; pending: string }>(
		`SELECT m.machine, m.last_seen,
		   (SELECT count(*) FROM boulder_commands c WHERE c.machine = m.machine AND c.state = 'pending') AS pending
		 FROM boulder_machines m WHERE ($1::text IS NULL OR m.machine = $1) ORDER BY m.machine`,
		[filter.machine ?? null],
	);
	const worktrees = await db.query<{
		machine: string;
		worktree_id: string;
		root: string;
		snapshot: WorktreeStatusView;
		snapshot_at: string;
	}>(
		`SELECT machine, worktree_id, root, snapshot, snapshot_at FROM boulder_worktrees
		 WHERE ($1::text IS NULL OR machine = $1) ORDER BY machine, root`,
		[filter.machine ?? null],
	);
	const byMachine = new Map<string, FleetMachineView>();
	for (const row of machines.rows) {
		byMachine.set(row.machine, {
			machine: row.machine,
			lastSeen: row.last_seen.getTime(),
			worktrees: [],
			pendingCommands: Number(row.pending),
		});
	}
	const counts: Record<FleetState, number> = { "needs-person": 0, stuck: 0, rolling: 0, done: 0 };
	for (const row of worktrees.rows) {
		const machine = byMachine.get(row.machine);
		if (!machine) continue;
		const shown = filtered(row.snapshot, filter);
		if (!shown) continue;
		for (const state of [...Object.values(shown.states.works), ...Object.values(shown.states.sessions)])
			counts[state]++;
		machine.worktrees.push({ id: row.worktree_id, root: row.root, snapshotAt: Number(row.snapshot_at), ...shown });
	}
	const filtering = filter.state !== undefined || filter.harness !== undefined;
	const list = [...byMachine.values()].filter((machine) => !filtering || machine.worktrees.length > 0);
	return { now, machines: list, counts };
}

/** The snapshot with only the works and sessions the filter keeps; null when none is left and a filter was given. */
function filtered(
	view: WorktreeStatusView,
	filter: FleetFilter,
): { view: WorktreeStatusView; states: FleetWorktreeView["states"] } | null {
	const works = view.works.filter(
		(work) =>
			(filter.state === undefined || workState(work, view) === filter.state) &&
			(filter.harness === undefined || work.sessions.some((session) => session.harness === filter.harness)),
	);
	const sessions = view.sessions.filter(
		(session) =>
			(filter.state === undefined || sessionState(session, view) === filter.state) &&
			(filter.harness === undefined || session.harness === filter.harness),
	);
	if ((filter.state !== undefined || filter.harness !== undefined) && works.length === 0 && sessions.length === 0) {
		return null;
	}
	const kept = { ...view, works, sessions };
	return {
		view: kept,
		states: {
			works: Object.fromEntries(works.map((work) => [work.id, workState(work, view)])),
			sessions: Object.fromEntries(
				sessions.map((session) => [`${session.harness}:${session.sessionId}`, sessionState(session, view)]),
			),
		},
	};
}
