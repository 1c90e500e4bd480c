/**
 * What the dashboard's buttons do: the same engine calls as `boulder stop`,
 * `go`, `pause`, `resume` and `abandon`, logged the same way, with the
 * dashboard named as who did it. A request is checked against what the
 * dashboard shows: only a worktree of the index, one of its sessions, one of
 * its works; never a path or id the page made up.
 */
import type { Clock } from "../core/clock.js";
import { defaultConfig } from "../core/config.js";
import { isBoulderError } from "../core/errors.js";
import { Engine } from "../engine/engine.js";
import type { FleetWorktreeData } from "../engine/fleet.js";
import { openState } from "../engine/open.js";
import { filePlans } from "../engine/plan-files.js";
import { changeWorkStatus, setStopped } from "../engine/works-ops.js";
import type { ActionAnswer, ActionRequest } from "./view-types.js";

/** Who the decision log says did it. */
export const DASHBOARD_BY = "the dashboard (`boulder ui`)";

export interface ActionContext {
	clock: Clock;
	env: NodeJS.ProcessEnv;
	/** The worktree as the dashboard shows it, or null when the index does not list it. */
	worktree(root: string): FleetWorktreeData | null;
}

const LIFECYCLE = { pause: "paused", resume: "active", abandon: "abandoned" } as const;

export async function runAction(request: ActionRequest, context: ActionContext): Promise<ActionAnswer> {
	const known = context.worktree(request.worktree);
	if (!known) return { ok: false, message: `${request.worktree} is not a worktree this dashboard shows` };
	if (known.vanished) return { ok: false, message: `${request.worktree} no longer exists; nothing to change there` };
	const { store } = await openState({ cwd: known.root, env: context.env, clock: context.clock });
	const deps = { store, clock: context.clock, plans: filePlans };
	try {
		if (request.action === "stop" || request.action === "go") {
			const stop = request.action === "stop";
			if (request.session) {
				const { harness, sessionId } = request.session;
				if (!known.sessions.some((s) => s.harness === harness && s.sessionId === sessionId)) {
					return { ok: false, message: `no session ${harness}:${sessionId} in ${known.root}` };
				}
				const engine = new Engine({ store, config: defaultConfig(), clock: context.clock, plans: filePlans });
				if (stop) await engine.stopSession({ harness, sessionId }, DASHBOARD_BY);
				else await engine.goSession({ harness, sessionId }, DASHBOARD_BY);
				return { ok: true, message: `${stop ? "Stopped" : "Turned on"} continuation for ${harness}:${sessionId}.` };
			}
			const { changed, warning, handedOver } = await setStopped(deps, stop, DASHBOARD_BY);
			const said = stop
				? changed
					? `Stopped: boulder will not nudge any session in ${known.root} until it is turned on again.`
					: `Continuation was already stopped in ${known.root}.`
				: changed
					? `On again: boulder continues the active work in ${known.root}.`
					: handedOver
						? `Continuation was not stopped in ${known.root}.`
						: `Continuation was not stopped in ${known.root}; nothing changed.`;
			const handed = handedOver
				? ` "${handedOver.name}" is handed over: the next other session that goes idle in ${known.root} joins it.`
				: "";
			return { ok: true, message: `${said}${handed}${warning ? ` (warning: ${warning})` : ""}` };
		}
		const work = request.work;
		if (!work || !known.works.some((entry) => entry.work.id === work)) {
			return { ok: false, message: `no work ${JSON.stringify(work ?? "")} in ${known.root}` };
		}
		const change = await changeWorkStatus(deps, LIFECYCLE[request.action], work, DASHBOARD_BY);
		const verb = { pause: "Paused", resume: "Resumed", abandon: "Abandoned" }[request.action];
		const said = change.changed
			? `${verb} "${change.work.name}".`
			: `"${change.work.name}" was already ${change.work.status}.`;
		const handed =
			change.changed && change.work.handover ? ` The next other session that goes idle in ${known.root} joins it.` : "";
		const made = change.paused.map((other) => ` Paused "${other.name}" to make way.`).join("");
		const warnings = change.warnings.map((warning) => ` (warning: ${warning})`).join("");
		return { ok: true, message: `${said}${handed}${made}${warnings}` };
	} catch (error) {
		if (isBoulderError(error)) return { ok: false, message: error.message };
		throw error;
	}
}
