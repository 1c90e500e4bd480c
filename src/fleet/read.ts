/**
 * The fleet view's read model (`boulder status --fleet`, `boulder ui
 * --fleet`): every machine with its worktrees' summaries (`summary.ts`, made
 * from the status snapshots when they were shipped) and each work's and
 * session's tally of decision rows, filtered by machine, state and harness
 * in the database. The whole snapshots (the local `boulder status` views)
 * are read only when asked for (`views`): one machine's detail, or the
 * text rendering, which draws them with the local status's code.
 *
 * Contract: reads only; one query for the machines and one for their
 * worktrees, whatever the size of the decision table.
 */
import type { WorktreeStatusView } from "../engine/status.js";
import type { Db } from "./db.js";
import type { FleetState } from "./fleet-state.js";
import { filterSummary, sessionSubject, summarize, type Tally, type WorktreeSummary, withTallies } from "./summary.js";

export interface FleetFilter {
	machine?: string;
	state?: FleetState;
	harness?: string;
}

export interface FleetWorktreeView extends WorktreeSummary {
	id: string;
	root: string;
	/** When the machine took this snapshot (its clock). */
	snapshotAt: number;
	/** The whole local status view (only when read with `views`), with what the filter keeps. */
	view?: WorktreeStatusView;
}

export interface FleetMachineView {
	machine: string;
	/** When its shipper last connected (the database's clock), ms. */
	lastSeen: number;
	worktrees: FleetWorktreeView[];
	/** Remote commands not yet applied there. */
	pendingCommands: number;
	/** How many of each state among what is shown of this machine. */
	counts: Record<FleetState, number>;
}

export interface FleetReport {
	now: number;
	machines: FleetMachineView[];
	/** How many of each state across what is shown. */
	counts: Record<FleetState, number>;
}

export interface ReadOptions {
	/** Also read each worktree's whole snapshot (`view`). */
	views?: boolean;
}

interface WorktreeRow {
	machine: string;
	worktree_id: string;
	root: string;
	snapshot_at: string;
	summary: WorktreeSummary | null;
	snapshot: WorktreeStatusView | null;
	tallies: Record<string, Tally> | null;
}

const TALLIES = `(SELECT jsonb_object_agg(t.subject, jsonb_build_object('decisions', t.decisions, 'nudges', t.nudges,
	  'last', jsonb_build_object('seq', t.last_seq, 'at', t.last_at, 'kind', t.last_kind, 'reason', t.last_reason, 'detail', t.last_detail)))
	FROM boulder_tallies t WHERE t.machine = w.machine AND t.worktree_id = w.worktree_id)`;

function noCounts(): Record<FleetState, number> {
	return { "needs-person": 0, stuck: 0, rolling: 0, done: 0 };
}

export async function readFleet(
	db: Db,
	filter: FleetFilter,
	now: number,
	options: ReadOptions = {},
): Promise<FleetReport> {
	const machines = await db.query<{ machine: string; last_seen: Date; pending: string }>(
		`SELECT m.machine, m.last_seen,
		   (SELECT count(*) FROM boulder_commands c WHERE c.machine = m.machine AND c.state = 'pending') AS pending
		 FROM boulder_machines m WHERE ($1::text IS NULL OR m.machine = $1) ORDER BY m.machine`,
		[filter.machine ?? null],
	);
	// A row stored before the summaries (schema 1) has none: its snapshot is read and summarized here.
	const worktrees = await db.query<WorktreeRow>(
		`SELECT w.machine, w.worktree_id, w.root, w.snapshot_at, w.summary,
		   CASE WHEN $4::boolean OR w.summary IS NULL THEN w.snapshot END AS snapshot,
		   ${TALLIES} AS tallies
		 FROM boulder_worktrees w
		 WHERE ($1::text IS NULL OR w.machine = $1)
		   AND ($2::text IS NULL OR w.summary IS NULL OR $2 = ANY (w.states))
		   AND ($3::text IS NULL OR w.summary IS NULL OR $3 = ANY (w.harnesses))
		 ORDER BY w.machine, w.root`,
		[filter.machine ?? null, filter.state ?? null, filter.harness ?? null, options.views === true],
	);
	const byMachine = new Map<string, FleetMachineView>();
	for (const row of machines.rows) {
		byMachine.set(row.machine, {
			machine: row.machine,
			lastSeen: row.last_seen.getTime(),
			worktrees: [],
			pendingCommands: Number(row.pending),
			counts: noCounts(),
		});
	}
	const counts = noCounts();
	for (const row of worktrees.rows) {
		const machine = byMachine.get(row.machine);
		if (!machine) continue;
		const summary = row.summary ?? (row.snapshot ? summarize(row.snapshot) : null);
		if (!summary) continue;
		const shown = filterSummary(withTallies(summary, row.tallies), filter);
		if (!shown) continue;
		for (const state of [...shown.works.map((work) => work.state), ...shown.sessions.map((session) => session.state)]) {
			counts[state]++;
			machine.counts[state]++;
		}
		const worktree: FleetWorktreeView = {
			id: row.worktree_id,
			root: row.root,
			snapshotAt: Number(row.snapshot_at),
			...shown,
		};
		if (options.views && row.snapshot) worktree.view = keptView(row.snapshot, shown);
		machine.worktrees.push(worktree);
	}
	const filtering = filter.state !== undefined || filter.harness !== undefined;
	const list = [...byMachine.values()].filter((machine) => !filtering || machine.worktrees.length > 0);
	return { now, machines: list, counts };
}

/** The whole view with only the works and sessions the summary kept. */
function keptView(view: WorktreeStatusView, kept: WorktreeSummary): WorktreeStatusView {
	const works = new Set(kept.works.map((work) => work.id));
	const sessions = new Set(kept.sessions.map((session) => sessionSubject(session.harness, session.sessionId)));
	return {
		...view,
		works: view.works.filter((work) => works.has(work.id)),
		sessions: view.sessions.filter((session) => sessions.has(sessionSubject(session.harness, session.sessionId))),
	};
}
