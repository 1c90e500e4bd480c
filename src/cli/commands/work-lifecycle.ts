/** `boulder pause | resume | abandon [WORK]`: one work's lifecycle; without WORK, the active one. */
import type { Command } from "commander";
import type { EventReason } from "../../core/event-reasons.js";
import { filePlans } from "../../engine/plan-files.js";
import type { Work, WorkStatus } from "../../engine/store-types.js";
import { setWorkStatus } from "../../engine/works-ops.js";
import { formatElapsed } from "../../present/format-time.js";
import { pausedToMakeWay } from "../../present/render/start.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import type { Colors } from "../io.js";
import { recordAction } from "../record-action.js";

interface Lifecycle {
	name: "pause" | "resume" | "abandon";
	status: WorkStatus;
	description: string;
	event: EventReason;
	said(work: Work, c: Colors): string;
	/** When the work already had that status: nothing changed, nothing is logged. */
	already(work: Work, c: Colors): string;
}

const LIFECYCLE: Record<Lifecycle["name"], Lifecycle> = {
	pause: {
		name: "pause",
		status: "paused",
		description: "pause a work: no nudges for it until `boulder resume`",
		event: "work-paused",
		said: (work, c) => `${c.yellow("Paused")} ${c.bold(work.name)}: no nudges for it until \`boulder resume\`.`,
		already: (work, c) => `${c.bold(work.name)} is already paused; nothing changed. \`boulder resume\` resumes it.`,
	},
	resume: {
		name: "resume",
		status: "active",
		description: "resume a paused work and make it the active one",
		event: "work-resumed",
		said: (work, c) => `${c.green("Resumed")} ${c.bold(work.name)}: it is the active work again.`,
		already: (work, c) => `${c.bold(work.name)} is already the active work; nothing changed.`,
	},
	abandon: {
		name: "abandon",
		status: "abandoned",
		description: "give up a work for good (its history stays in `boulder status`)",
		event: "work-abandoned",
		said: (work, c) =>
			`${c.red("Abandoned")} ${c.bold(work.name)} after ${formatElapsed(work.elapsedMs ?? 0)}. It stays listed in \`boulder status\`.`,
		// An abandoned work cannot be abandoned again: `setWorkStatus` refuses it.
		already: (work, c) => `${c.bold(work.name)} is already abandoned; nothing changed.`,
	},
};

function register(lifecycle: Lifecycle): (program: Command, cli: Cli) => void {
	return (program, cli) => {
		program
			.command(lifecycle.name)
			.description(lifecycle.description)
			.argument("[work]", "the work's id, name or plan path (default: the active work)")
			.action(async (ref: string | undefined) => {
				const handle = await cli.openState();
				const { work, changed, paused } = await setWorkStatus(
					{ store: handle.store, clock: cli.clock, plans: filePlans },
					lifecycle.status,
					ref,
				);
				const c = cli.colors();
				if (!changed) {
					cli.out(lifecycle.already(work, c));
					cli.exitCode = EXIT.ok;
					return;
				}
				await recordAction(cli, handle.store, {
					reason: lifecycle.event,
					detail: `"${work.name}", by \`boulder ${lifecycle.name}\``,
					work: work.id,
				});
				for (const other of paused) {
					await recordAction(cli, handle.store, {
						reason: "work-paused",
						detail: `"${other.name}", to make way for "${work.name}" (\`boulder ${lifecycle.name}\`)`,
						work: other.id,
					});
				}
				cli.out([lifecycle.said(work, c), ...pausedToMakeWay(paused, c)].join("\n"));
				cli.exitCode = EXIT.ok;
			});
	};
}

export const registerPause = register(LIFECYCLE.pause);
export const registerResume = register(LIFECYCLE.resume);
export const registerAbandon = register(LIFECYCLE.abandon);
