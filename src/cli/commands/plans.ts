/** `boulder plans [PATH…] [--json]`: the plan files at hand and how far each is. */
import type { Command } from "commander";
import { collectPlans } from "../../engine/plan-list.js";
import { findWorktreeRoot } from "../../engine/worktree.js";
import { planProblemLines, renderPlans } from "../../present/render/plans.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";

export function registerPlans(program: Command, cli: Cli): void {
	program
		.command("plans")
		.description("list plan files (the works' plans, those in .boulder/plans/ and the paths given) with their progress")
		.argument("[paths...]", "plan files, or folders of them")
		.option("--json", "machine-readable output")
		.action(async (paths: string[], options: { json?: boolean }) => {
			const worktree = findWorktreeRoot(cli.io.cwd);
			const plans = await collectPlans(worktree, cli.io.cwd, paths, cli.clock);
			if (options.json) {
				cli.out(JSON.stringify({ worktree, plans }, null, 2));
			} else {
				// What is wrong goes to stderr first, the listing asked for to stdout.
				for (const line of planProblemLines(plans)) cli.err(cli.errColors.red(`boulder: ${line}`));
				const text = renderPlans(plans, cli.colors());
				if (text !== "") cli.out(text);
			}
			cli.exitCode = plans.some((plan) => plan.problem !== null) ? EXIT.failure : EXIT.ok;
		});
}
