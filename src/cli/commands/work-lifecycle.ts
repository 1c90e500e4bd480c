/** `boulder pause | resume | abandon [WORK]`: one work's lifecycle; without WORK, the active one. */
import type { Command } from "commander";
import { filePlans } from "../../engine/plan-files.js";
import type { Work } from "../../engine/store-types.js";
import { changeWorkStatus } from "../../engine/works-ops.js";
import { formatElapsed } from "../../present/format-time.js";
import { handoverLines, pausedToMakeWay } from "../../present/render/start.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import type { Colors } from "../io.js";

interface Lifecycle {
	name: "pause" | "resume" | "abandon";
	status: "paused" | "active" | "abandoned";
	description: string;
	said(work: Work, c: Colors): string;
	/** When the work already had that status: nothing changed, nothing is logged. */
	already(work: Work, c: Colors): string;
}

const LIFECYCLE: Record<Lifecycle["name"], Lifecycle> = {
	pause: {
		name: "pause",
		status: "paused",
		description: "pause a work: no nudges for it until `boulder resume`",
		said: (work, c) => `${c.yellow("Paused")} ${c.bold(work.name)}: no nudges for it until \`boulder resume\`.`,
		already: (work, c) => `${c.bold(work.name)} is already paused; nothing changed. \`boulder resume\` resumes it.`,
	},
	resume: {
		name: "resume",
		status: "active",
		description: "resume a paused work and make it the active one",
		said: (work, c) => `${c.green("Resumed")} ${c.bold(work.name)}: it is the active work again.`,
		already: (work, c) => `${c.bold(work.name)} is already the active work; nothing changed.`,
	},
	abandon: {
		name: "abandon",
		status: "abandoned",
		description: "give up a work for good (its history stays in `boulder status`)",
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
				const { work, changed, paused, warnings } = await changeWorkStatus(
					{ store: handle.store, clock: cli.clock, plans: filePlans },
					lifecycle.status,
					ref,
					`\`boulder ${lifecycle.name}\``,
				);
				const c = cli.colors();
				if (!changed) {
					cli.out(lifecycle.already(work, c));
					cli.exitCode = EXIT.ok;
					return;
				}
				for (const warning of warnings) cli.err(cli.errColors.yellow(`boulder: warning: ${warning}`));
				const handed = work.status === "active" && work.handover ? handoverLines(work.sessions, c) : [];
				cli.out([lifecycle.said(work, c), ...handed, ...pausedToMakeWay(paused, c)].join("\n"));
				cli.exitCode = EXIT.ok;
			});
	};
}

export const registerPause = register(LIFECYCLE.pause);
export const registerResume = register(LIFECYCLE.resume);
export const registerAbandon = register(LIFECYCLE.abandon);
