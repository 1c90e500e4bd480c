/** `boulder doctor [--json]`: says exactly what is wrong and how to fix it; exit 1 when something is. */
import type { Command } from "commander";
import { renderDoctor } from "../../present/render/doctor.js";
import type { Cli } from "../context.js";
import { doctorChecks, runDoctor } from "../doctor/checks.js";
import { EXIT } from "../exit-codes.js";

export function registerDoctor(program: Command, cli: Cli): void {
	program
		.command("doctor")
		.description("check state files, schema versions, config and adapters; say what to fix")
		.option("--json", "machine-readable output")
		.action(async (options: { json?: boolean }) => {
			const { worktree, store } = await cli.openState();
			const findings = await runDoctor(
				{ worktree, store, env: cli.io.env, cwd: cli.io.cwd, now: cli.clock.now() },
				doctorChecks(cli.adapters),
			);
			const ok = !findings.some((finding) => finding.level === "problem");
			cli.out(
				options.json ? JSON.stringify({ worktree, ok, findings }, null, 2) : renderDoctor(findings, cli.colors()),
			);
			cli.exitCode = ok ? EXIT.ok : EXIT.failure;
		});
}
