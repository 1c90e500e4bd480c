/**
 * Remote control, the target's side (docs/fleet.md): a command row the
 * shipper fetched is applied here, locally, through the engine — the same
 * calls `boulder stop`/`go`/`pause`/`resume` make — and logged "by the
 * fleet, from <machine>". Applying is idempotent (stopping a stopped
 * worktree changes nothing), so a command applied twice after a crash is
 * harmless.
 */
import { defaultConfig } from "../core/config.js";
import { isBoulderError } from "../core/errors.js";
import { Engine } from "../engine/engine.js";
import { filePlans } from "../engine/plan-files.js";
import { resolveSession } from "../engine/session-lookup.js";
import { changeWorkStatus, setStopped } from "../engine/works-ops.js";
import { findProject, projectStore } from "../engine/worktree.js";
import { worktreeId } from "../state/fleet-files.js";
import type { Clock } from "../state/store.js";
import { readWorktreeList } from "../state/worktree-index.js";

export type FleetAction = "stop" | "go" | "pause" | "resume";
export type TargetKind = "machine" | "worktree" | "session" | "work";

export interface FleetCommand {
	id: string;
	action: FleetAction;
	targetKind: TargetKind;
	target: string | null;
	harness: string | null;
	fromMachine: string;
}

export interface Applied {
	state: "applied" | "failed";
	/** What happened, in words, stored on the row. */
	result: string;
}

/** Who the local log says did it. */
export function fleetBy(fromMachine: string): string {
	return `the fleet, from ${fromMachine}`;
}

export async function applyCommand(command: FleetCommand, env: NodeJS.ProcessEnv, clock: Clock): Promise<Applied> {
	const by = fleetBy(command.fromMachine);
	const roots = (await readWorktreeList({ env, clock })).entries.map((entry) => entry.root);
	const stores = roots.map((root) => projectStore(findProject(root), env, { clock }));
	const deps = (store: (typeof stores)[number]) => ({ store, clock, plans: filePlans });
	const stop = command.action === "stop" || command.action === "pause";
	switch (command.targetKind) {
		case "machine":
		case "worktree": {
			const chosen =
				command.targetKind === "machine"
					? stores
					: stores.filter(
							(store) => worktreeId(store.worktree) === command.target || store.worktree === command.target,
						);
			if (chosen.length === 0)
				return { state: "failed", result: `no worktree ${command.target ?? ""} on this machine` };
			let changed = 0;
			for (const store of chosen) if ((await setStopped(deps(store), stop, by)).changed) changed++;
			return {
				state: "applied",
				result: `${stop ? "stopped" : "turned on"} ${changed} of ${chosen.length} worktree${chosen.length === 1 ? "" : "s"} (the others already were)`,
			};
		}
		case "session": {
			for (const store of stores) {
				try {
					const ref = await resolveSession(store, command.target ?? "", command.harness ?? undefined);
					const engine = new Engine({ store, config: defaultConfig(), clock, plans: filePlans });
					if (stop) await engine.stopSession(ref, by);
					else await engine.goSession(ref, by);
					return {
						state: "applied",
						result: `${stop ? "stopped" : "turned on"} ${ref.harness} session ${ref.sessionId} in ${store.worktree}`,
					};
				} catch (error) {
					// Not in this worktree (unknown, or its id is ambiguous here): the next one is asked.
					if (isBoulderError(error) && (error.code === "not-found" || error.code === "usage")) continue;
					throw error;
				}
			}
			return { state: "failed", result: `no session ${command.target ?? ""} on this machine` };
		}
		case "work": {
			for (const store of stores) {
				const works = await store.readWorks();
				if (works.kind !== "ok" || !command.target || !works.value.works[command.target]) continue;
				try {
					const change = await changeWorkStatus(deps(store), stop ? "paused" : "active", command.target, by);
					return {
						state: "applied",
						result: `${change.changed ? (stop ? "paused" : "resumed") : `left ${change.work.status}`} "${change.work.name}" in ${store.worktree}`,
					};
				} catch (error) {
					if (isBoulderError(error) && (error.code === "not-found" || error.code === "usage")) {
						return { state: "failed", result: error.message };
					}
					throw error;
				}
			}
			return { state: "failed", result: `no work ${command.target ?? ""} on this machine` };
		}
	}
}
