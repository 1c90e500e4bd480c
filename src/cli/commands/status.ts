/** `boulder status [--all] [--json]`: the works, how far they are, and the last decision. */
import type { Command } from "commander";
import { readStatusAll, readWorktreeStatus, statusCounts } from "../../engine/status.js";
import { renderStatus, type StatusReport } from "../../present/render/status.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";

export function registerStatus(program: Command, cli: Cli): void {
	program
		.command("status")
		.description("show the works of this worktree: progress, elapsed time, sessions, next item, last decision")
		.option("--all", "every worktree boulder has seen (skips ones that no longer exist)")
		.option("--json", "machine-readable output")
		.option("--fleet", "every machine of the fleet, from its PostgreSQL (docs/fleet.md)")
		.option("--machine <name>", "with --fleet: only this machine")
		.option("--state <state>", "with --fleet: only works and sessions that are needs-person, stuck, rolling or done")
		.option("--harness <name>", "with --fleet: only sessions of this harness")
		.action(
			async (options: {
				all?: boolean;
				json?: boolean;
				fleet?: boolean;
				machine?: string;
				state?: string;
				harness?: string;
			}) => {
				if (options.fleet) {
					cli.exitCode = await (await import("./fleet-status.js")).fleetStatus(cli, options);
					return;
				}
				const now = cli.clock.now();
				let report: StatusReport;
				if (options.all) {
					const all = await readStatusAll({ now, env: cli.io.env, index: { env: cli.io.env, clock: cli.clock } });
					report = { now, all: true, ...all };
				} else {
					const { store } = await cli.openState();
					const worktrees = [await readWorktreeStatus(store, { now, env: cli.io.env })];
					report = { now, all: false, worktrees, vanished: [], counts: statusCounts(worktrees, []) };
				}
				cli.out(options.json ? JSON.stringify(report, null, 2) : renderStatus(report, cli.colors()));
				cli.exitCode = EXIT.ok;
			},
		);
}
