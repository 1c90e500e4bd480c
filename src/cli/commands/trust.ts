/**
 * `boulder trust [WORK]`: the user takes on the works of this worktree that
 * boulder did not record for them (state that came with a checkout or a
 * copy), and approves the verify commands each would run, shown here in
 * full. Until then boulder neither nudges nor verifies them.
 */
import type { Command } from "commander";
import { filePlans } from "../../engine/plan-files.js";
import { trustWorks } from "../../engine/works-ops.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { recordAction } from "../record-action.js";

export function registerTrust(program: Command, cli: Cli): void {
	program
		.command("trust")
		.description("take on this worktree's works and approve their verify commands (state that came with a checkout)")
		.argument("[work]", "the work's id, name or plan path (default: every live work)")
		.action(async (ref: string | undefined) => {
			const handle = await cli.openState();
			const { store } = handle;
			const { works, verify } = await trustWorks({ store, clock: cli.clock, plans: filePlans }, ref);
			const c = cli.colors();
			if (works.length === 0) {
				cli.out("There is no live work here to trust; `boulder start PLAN.md` starts one.");
				cli.exitCode = EXIT.ok;
				return;
			}
			const lines: string[] = [];
			for (const work of works) {
				lines.push(`${c.green("Trusted")} ${c.bold(work.name)} (${work.planPath}).`);
				const commands = verify.find((entry) => entry.work.id === work.id)?.commands ?? [];
				if (commands.length > 0) {
					lines.push("  Approved verify commands (they run when every item is done):");
					for (const command of commands) lines.push(`    ${command}`);
				}
				await recordAction(cli, store, {
					reason: "work-trusted",
					detail: `"${work.name}" (${work.planPath})${commands.length > 0 ? `, with ${commands.length} verify command(s)` : ""}, by \`boulder trust\``,
					work: work.id,
				});
			}
			cli.out(lines.join("\n"));
			cli.exitCode = EXIT.ok;
		});
}
