/** `boulder pause | resume | abandon [WORK]`: one work's lifecycle; without WORK, the active one. */
import type { Command } from "commander";
import { BoulderError } from "../../core/errors.js";
import { filePlans } from "../../engine/plan-files.js";
import type { Store, Work, WorksFile } from "../../engine/store-types.js";
import { changeWorkStatus, findWork, worksOrThrow } from "../../engine/works-ops.js";
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
		description: "resume a paused (or abandoned) work and make it the active one",
		said: (work, c) => `${c.green("Resumed")} ${c.bold(work.name)}: it is the active work again.`,
		already: (work, c) => `${c.bold(work.name)} is already the active work; nothing changed.`,
	},
	abandon: {
		name: "abandon",
		status: "abandoned",
		description: "give up a work: no more nudges for it (`boulder resume WORK` brings it back)",
		said: (work, c) =>
			`${c.red("Abandoned")} ${c.bold(work.name)} after ${formatElapsed(work.elapsedMs ?? 0)}. It stays listed in \`boulder status\`; \`boulder resume ${work.id}\` brings it back.`,
		// An abandoned work cannot be abandoned again: `setWorkStatus` refuses it.
		already: (work, c) => `${c.bold(work.name)} is already abandoned; nothing changed.`,
	},
};

function register(lifecycle: Lifecycle): (program: Command, cli: Cli) => void {
	return (program, cli) => {
		const command = program
			.command(lifecycle.name)
			.description(lifecycle.description)
			.argument("[work]", "the work's id (or a unique start of it), name or plan path (default: the active work)");
		if (lifecycle.name === "abandon") command.option("-y, --yes", "abandon the active work without asking");
		command.action(async (ref: string | undefined, options: { yes?: boolean }) => {
			const handle = await cli.openState();
			// A unique start of an id is that work; the engine is then given the whole id.
			let target = ref === undefined ? undefined : findWork(await worksOf(handle.store), ref, { prefix: true }).id;
			if (lifecycle.name === "abandon" && ref === undefined && !options.yes) {
				const active = findWork(await worksOf(handle.store));
				if (!(await confirmed(cli, active))) {
					cli.out(`Nothing changed: ${active.name} stays the active work.`);
					cli.exitCode = EXIT.ok;
					return;
				}
				// Exactly the work the person said yes to, even if another became active meanwhile.
				target = active.id;
			}
			const { work, changed, paused, warnings } = await changeWorkStatus(
				{ store: handle.store, clock: cli.clock, plans: filePlans },
				lifecycle.status,
				target,
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

async function worksOf(store: Store): Promise<WorksFile> {
	return worksOrThrow(await store.readWorks());
}

/**
 * `boulder abandon` without a work gives up the active one: asked first on a
 * terminal; elsewhere nobody can answer, so it takes `--yes`.
 */
async function confirmed(cli: Cli, work: Work): Promise<boolean> {
	const input = cli.io.stdin;
	if (!input?.isTTY) {
		throw new BoulderError(
			"usage",
			`\`boulder abandon\` without a work gives up the active work "${work.name}" (${work.id}); nobody can confirm that here (not a terminal): run \`boulder abandon --yes\`, or name the work: \`boulder abandon ${work.id}\``,
		);
	}
	const answer = await input.ask(
		`Abandon the active work "${work.name}" (${work.id})? \`boulder resume ${work.id}\` brings it back. [y/N] `,
	);
	return /^\s*y(es)?\s*$/i.test(answer);
}

export const registerPause = register(LIFECYCLE.pause);
export const registerResume = register(LIFECYCLE.resume);
export const registerAbandon = register(LIFECYCLE.abandon);
