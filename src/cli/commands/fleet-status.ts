/**
 * `boulder status --fleet [--json] [--machine M] [--state S] [--harness H]`:
 * every machine of the fleet, from PostgreSQL, each with its worktrees in the
 * words of the local `boulder status` (the snapshots are its views). The
 * JSON of the whole fleet carries each worktree's summary; with `--machine`
 * each worktree also carries its whole view, as the text shows it.
 */
import { BoulderError } from "../../core/errors.js";
import { FLEET_STATES, type FleetState } from "../../fleet/fleet-state.js";
import { formatWhen } from "../../present/format-time.js";
import { renderStatus } from "../../present/render/status.js";
import type { Cli } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";

export interface FleetStatusOptions {
	json?: boolean;
	machine?: string;
	state?: string;
	harness?: string;
}

export async function fleetStatus(cli: Cli, options: FleetStatusOptions): Promise<ExitCode> {
	if (options.state !== undefined && !FLEET_STATES.includes(options.state as FleetState)) {
		throw new BoulderError("usage", `--state: expected one of ${FLEET_STATES.join(", ")}, got "${options.state}"`);
	}
	// Only what reading needs (not the shipper, the engine's apply or OpenTelemetry).
	const [{ connectFleet }, { fleetSettings }, { readFleet }] = await Promise.all([
		import("../../fleet/db.js"),
		import("../../fleet/config.js"),
		import("../../fleet/read.js"),
	]);
	const settings = await fleetSettings(cli.io.env);
	if (!settings.enabled) {
		throw new BoulderError(
			"usage",
			"this machine is in no fleet: set BOULDER_FLEET_URL=postgres://… or run `boulder fleet join URL`",
		);
	}
	const db = await connectFleet(settings);
	try {
		const now = cli.clock.now();
		const report = await readFleet(
			db,
			{
				...(options.machine ? { machine: options.machine } : {}),
				...(options.state ? { state: options.state as FleetState } : {}),
				...(options.harness ? { harness: options.harness } : {}),
			},
			now,
			// The whole snapshots for one machine's detail and for the text, which draws them as the local status does.
			{ views: options.machine !== undefined || !options.json },
		);
		if (options.json) {
			// One line: a fleet's report runs to megabytes, and indenting it doubles that (pipe it to `jq`).
			cli.out(JSON.stringify(report));
			return EXIT.ok;
		}
		const c = cli.colors();
		const blocks = [
			`${c.bold("Fleet")} at ${settings.display}: ${report.machines.length} machine${report.machines.length === 1 ? "" : "s"} · ${FLEET_STATES.map((state) => `${report.counts[state]} ${state}`).join(" · ")}`,
		];
		for (const machine of report.machines) {
			const pending = machine.pendingCommands > 0 ? ` · ${machine.pendingCommands} command(s) not yet applied` : "";
			blocks.push(
				`${c.bold(c.cyan(machine.machine))} · last shipped ${formatWhen(machine.lastSeen, now)}${pending}`,
				renderStatus(
					{
						now,
						all: true,
						worktrees: machine.worktrees.flatMap((worktree) => (worktree.view ? [worktree.view] : [])),
						vanished: [],
					},
					c,
				)
					.split("\n")
					.map((line) => (line ? `  ${line}` : line))
					.join("\n"),
			);
		}
		if (report.machines.length === 0) blocks.push(c.dim("No machine matches."));
		cli.out(blocks.join("\n\n"));
		return EXIT.ok;
	} finally {
		await db.end().catch(() => {});
	}
}
