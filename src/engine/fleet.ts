/**
 * The dashboard's read model: every worktree of the user-level index, kept
 * up to date by cheap looks (`FleetWorktree`), and one timeline of the
 * decisions across them. A look stats the index and each worktree's state
 * and reads only what changed, so a large fleet costs stats, not reads, while
 * nothing happens.
 *
 * Contract: only looks; the caller decides how often (`look` is never run
 * twice at once).
 */
import type { DecisionRecord } from "../core/decision-record.js";
import { readWorktreeList, type WorktreeIndexOptions, worktreeIndexFile } from "../state/worktree-index.js";
import { userConfigPath } from "./config-loader.js";
import type { PlanSource } from "./engine-types.js";
import { FleetWorktree, type FleetWorktreeData, fileStamp } from "./fleet-worktree.js";
import { filePlans } from "./plan-files.js";
import { indexProblemText, mapLimited } from "./status.js";

export type { WorktreeIndexOptions } from "../state/worktree-index.js";
export type { FleetItem, FleetSession, FleetWork, FleetWorktreeData } from "./fleet-worktree.js";

export interface FleetOptions {
	env: NodeJS.ProcessEnv;
	index?: WorktreeIndexOptions;
	plans?: PlanSource;
	/** Decision-log lines kept per worktree. */
	keepDecisions?: number;
	/** Lines kept in the timeline across all worktrees. */
	timeline?: number;
	/** Worktrees looked at at once. */
	concurrency?: number;
}

export interface FleetChange {
	/** Worktrees whose view changed, by root. */
	changed: string[];
	/** Worktrees that left the index. */
	removed: string[];
	/** Decision-log lines new since the last look, oldest first. */
	fresh: DecisionRecord[];
	/** The index itself changed (added or removed worktrees, or its problem). */
	index: boolean;
}

export interface FleetSnapshot {
	/** In the index's order: most recently seen first. */
	worktrees: FleetWorktreeData[];
	/** The newest lines across all worktrees, newest last. */
	timeline: DecisionRecord[];
	indexProblem: string | null;
}

export class Fleet {
	private readonly options: FleetOptions;
	private readonly worktrees = new Map<string, FleetWorktree>();
	private order: string[] = [];
	private indexStamp = "";
	private indexProblem: string | null = null;
	private timeline: DecisionRecord[] = [];

	constructor(options: FleetOptions) {
		this.options = options;
	}

	/** The worktree with this root, if the index lists it. */
	worktree(root: string): FleetWorktreeData | null {
		return this.worktrees.get(root)?.data() ?? null;
	}

	snapshot(): FleetSnapshot {
		return {
			worktrees: this.order.flatMap((root) => this.worktrees.get(root)?.data() ?? []),
			timeline: this.timeline,
			indexProblem: this.indexProblem,
		};
	}

	async look(): Promise<FleetChange> {
		const change: FleetChange = { changed: [], removed: [], fresh: [], index: false };
		const indexOptions = { env: this.options.env, ...this.options.index };
		const stamp = await fileStamp(worktreeIndexFile(indexOptions));
		if (stamp !== this.indexStamp) {
			this.indexStamp = stamp;
			change.index = true;
			const list = await readWorktreeList(indexOptions);
			this.indexProblem = list.problem ? indexProblemText(list.problem) : null;
			this.order = list.entries.map((entry) => entry.root);
			for (const root of this.worktrees.keys()) {
				if (!this.order.includes(root)) {
					this.worktrees.delete(root);
					change.removed.push(root);
				}
			}
			for (const root of this.order) {
				if (!this.worktrees.has(root)) {
					this.worktrees.set(
						root,
						new FleetWorktree(root, {
							env: this.options.env,
							plans: this.options.plans ?? filePlans,
							keepDecisions: this.options.keepDecisions ?? 200,
						}),
					);
				}
			}
		}
		const userConfig = await fileStamp(userConfigPath(this.options.env));
		const first = this.timeline.length === 0;
		const looks = await mapLimited([...this.worktrees.values()], this.options.concurrency ?? 16, async (worktree) => ({
			root: worktree.root,
			...(await worktree.look(userConfig)),
		}));
		for (const look of looks) {
			if (look.changed) change.changed.push(look.root);
			change.fresh.push(...look.fresh);
		}
		change.fresh.sort((a, b) => a.at - b.at);
		if (first || change.index) {
			this.timeline = this.order
				.flatMap((root) => this.worktrees.get(root)?.data().decisions ?? [])
				.sort((a, b) => a.at - b.at)
				.slice(-this.limit());
		} else if (change.fresh.length > 0) {
			this.timeline = [...this.timeline, ...change.fresh].slice(-this.limit());
		}
		return change;
	}

	private limit(): number {
		return this.options.timeline ?? 1000;
	}
}
