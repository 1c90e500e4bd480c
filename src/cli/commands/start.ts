/** `boulder start PLAN.md [--name NAME]`: makes a plan the active work of this worktree. */
import type { Command } from "commander";
import { BoulderError } from "../../core/errors.js";
import { loadConfig } from "../../engine/config-loader.js";
import { openState } from "../../engine/open.js";
import { filePlans } from "../../engine/plan-files.js";
import { folderNotPlan } from "../../engine/plan-list.js";
import { startWork } from "../../engine/works-ops.js";
import { renderStarted } from "../../present/render/start.js";
import { type Cli, warned } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";
import { recordAction } from "../record-action.js";

export function registerStart(program: Command, cli: Cli): void {
	program
		.command("start")
		.description("make a Markdown plan the active work of this worktree")
		.argument("<plan>", "the plan file, e.g. PLAN.md")
		.option("--name <name>", "what to call the work (default: the plan's `name:` or its first heading)")
		.option("--orchestrate", "the session delegates the items to subagents (as `mode: orchestrate` in the plan)")
		.action(async (plan: string, options: { name?: string; orchestrate?: boolean }) => {
			cli.exitCode = await start(cli, plan, options);
		});
}

async function start(cli: Cli, planPath: string, options: { name?: string; orchestrate?: boolean }): Promise<ExitCode> {
	const folder = await folderNotPlan(cli.io.cwd, planPath);
	if (folder) throw new BoulderError("plan-invalid", folder);
	// Outside any project, starting a work here is what makes this folder one.
	const handle = warned(cli, await openState({ ...cli.openOptions(), startHere: true }));
	const { store } = handle;
	const { work, plan, outcome, paused, handedOver } = await startWork(
		{ store, clock: cli.clock, plans: filePlans },
		{
			planPath,
			cwd: cli.io.cwd,
			...(options.name ? { name: options.name } : {}),
			...(options.orchestrate ? { orchestrate: true } : {}),
		},
	);
	await cli.noteWorktree(handle);
	if (outcome !== "already-active") {
		await recordAction(cli, store, {
			reason: "work-started",
			detail: `"${work.name}" (${work.planPath})${outcome === "made-active" ? ", made active again" : ""}`,
			work: work.id,
		});
	}
	for (const other of paused) {
		await recordAction(cli, store, {
			reason: "work-paused",
			detail: `"${other.name}", to make way for "${work.name}" (\`boulder start\`)`,
			work: other.id,
		});
	}
	const after = await store.readWorks();
	const { total, completed, open, blocked, cancelled } = plan.counts;
	cli.out(
		renderStarted(
			{
				name: work.name,
				id: work.id,
				planPath: work.planPath,
				worktree: handle.worktree,
				outcome,
				paused: paused.map((other) => ({ name: other.name, id: other.id })),
				progress: { total, done: completed, open, blocked, cancelled },
				next: plan.next?.title ?? null,
				verify: work.verify,
				orchestrate: work.mode === "orchestrate" || plan.frontMatter.mode === "orchestrate",
				stoppedBy: after.kind === "ok" ? (after.value.stopped?.by ?? null) : null,
				configProblem: configProblem(cli, handle.worktree),
				handedOverFrom: handedOver ? work.sessions : [],
			},
			cli.colors(),
		),
	);
	return EXIT.ok;
}

/** Starting does not need the config, but the user must hear that a bad one keeps boulder idle. */
function configProblem(cli: Cli, worktree: string): string | null {
	try {
		loadConfig(worktree, cli.io.env);
		return null;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}
