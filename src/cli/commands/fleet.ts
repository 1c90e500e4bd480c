/**
 * `boulder fleet ship|status|join|leave|stop|go|pause|resume` (docs/fleet.md):
 * this machine's part in a fleet over PostgreSQL. `ship` runs the shipper in
 * the foreground (the hook starts it detached, `--background`); `status`
 * shows the backlog without the network; the control commands write a row
 * the target machine applies through its own engine.
 *
 * Credentials are never printed: the connection is shown redacted, and
 * errors are scrubbed of the password in use.
 */
import type { Command } from "commander";
import { BoulderError } from "../../core/errors.js";
import type { FleetAction, TargetKind } from "../../fleet/apply.js";
import type { FleetSettings } from "../../fleet/config.js";
import { readShipperStatus, removeFleetMember, shipperRunning, writeFleetMember } from "../../fleet/membership.js";
import type { Cli } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";

async function fleet() {
	return import("../../fleet/index.js");
}

export function registerFleet(program: Command, cli: Cli): void {
	const group = program
		.command("fleet")
		.description("mirror this machine's decisions into a fleet's PostgreSQL, and control other machines");

	group
		.command("ship")
		.description("ship this machine's unshipped records now, in the foreground")
		.option("--background", "what the hook starts: linger for commands, print nothing, always exit 0")
		.action(async (options: { background?: boolean }) => {
			cli.exitCode = options.background ? await shipBackground(cli) : await shipForeground(cli);
		});

	group
		.command("status")
		.description("this machine's backlog (records not yet shipped), the shipper and its last error")
		.option("--json", "machine-readable output")
		.action(async (options: { json?: boolean }) => {
			cli.exitCode = await status(cli, options.json === true);
		});

	group
		.command("join")
		.description("make this machine ship to a fleet (a postgres:// URL, or the standard PG* variables when left out)")
		.argument("[url]", "postgres://user@host:5432/db?sslmode=require")
		.option("--machine <name>", "this machine's name in the fleet (default: the host name; BOULDER_MACHINE wins)")
		.action(async (url: string | undefined, options: { machine?: string }) => {
			const { settingsFrom } = await fleet();
			const member = {
				schemaVersion: 1 as const,
				url: url ?? null,
				machine: options.machine ?? null,
				joinedAt: cli.clock.now(),
			};
			const settings = settingsFrom({ ...cli.io.env, BOULDER_FLEET_URL: undefined }, member);
			await writeFleetMember(cli.io.env, member);
			cli.out(
				`Joined the fleet at ${settings.display} as ${settings.machine}. The hooks ship from now on; \`boulder fleet ship\` ships now.`,
			);
			cli.exitCode = EXIT.ok;
		});

	group
		.command("leave")
		.description("stop shipping from this machine (what was shipped stays in the fleet)")
		.action(async () => {
			const was = await removeFleetMember(cli.io.env);
			cli.out(was ? "Left the fleet: nothing is shipped from this machine any more." : "This machine was in no fleet.");
			if (cli.io.env.BOULDER_FLEET_URL) cli.out("BOULDER_FLEET_URL is still set in this environment: unset it too.");
			cli.exitCode = EXIT.ok;
		});

	for (const action of ["stop", "go"] as const) {
		group
			.command(action)
			.description(
				action === "stop"
					? "stop continuation on another machine: all its worktrees, one worktree or one session"
					: "turn continuation back on on another machine (a worktree or a session)",
			)
			.argument("<machine>", "the target machine's name in the fleet")
			.option("--session <id>", "only this session")
			.option("--harness <name>", "the harness of --session")
			.option("--worktree <id>", "only this worktree: its fleet id (`boulder status --fleet --json`) or its root")
			.option("--wait [seconds]", "wait until the target applied it (default 30 s)")
			.action(async (machine: string, options: ControlOptions) => {
				cli.exitCode = await control(cli, action, machine, options);
			});
	}
	for (const action of ["pause", "resume"] as const) {
		group
			.command(action)
			.description(`${action} a work on another machine`)
			.argument("<machine>", "the target machine's name in the fleet")
			.requiredOption("--work <id>", "the work's id")
			.option("--wait [seconds]", "wait until the target applied it (default 30 s)")
			.action(async (machine: string, options: ControlOptions) => {
				cli.exitCode = await control(cli, action, machine, options);
			});
	}
}

interface ControlOptions {
	session?: string;
	harness?: string;
	worktree?: string;
	work?: string;
	wait?: string | boolean;
}

async function settingsOrFail(cli: Cli): Promise<FleetSettings> {
	const { fleetSettings } = await fleet();
	const settings = await fleetSettings(cli.io.env);
	if (!settings.enabled) {
		throw new BoulderError(
			"usage",
			cli.io.env.BOULDER_FLEET === "off"
				? "the fleet is turned off here (BOULDER_FLEET=off)"
				: "this machine is in no fleet: set BOULDER_FLEET_URL=postgres://… or run `boulder fleet join URL`",
		);
	}
	return settings;
}

async function shipForeground(cli: Cli): Promise<ExitCode> {
	const { runShipper, ShipperBusy, otelEnabled, fleetSettings } = await fleet();
	const settings = otelEnabled(cli.io.env) ? await fleetSettings(cli.io.env) : await settingsOrFail(cli);
	try {
		const result = await runShipper({ env: cli.io.env, settings, clock: cli.clock, lingerMs: 0 });
		if (result.exported > 0)
			cli.out(`Exported ${result.exported} record${result.exported === 1 ? "" : "s"} to OpenTelemetry.`);
		if (!settings.enabled) return EXIT.ok;
		cli.out(
			`Shipped ${result.shipped} record${result.shipped === 1 ? "" : "s"} and ${result.snapshots} worktree snapshot${result.snapshots === 1 ? "" : "s"} as ${settings.machine}${result.commands > 0 ? `; applied ${result.commands} fleet command${result.commands === 1 ? "" : "s"}` : ""}.`,
		);
		return EXIT.ok;
	} catch (error) {
		if (error instanceof ShipperBusy) {
			cli.out("A shipper is running on this machine already; it ships these records.");
			return EXIT.ok;
		}
		throw error;
	}
}

/** The hook's detached shipper: silent, and it tries again while records keep arriving as it leaves. */
async function shipBackground(cli: Cli): Promise<ExitCode> {
	try {
		const { fleetSettings, runShipper, readBacklog, DEFAULT_LINGER_MS, otelEnabled } = await fleet();
		const settings = await fleetSettings(cli.io.env);
		if (!settings.enabled && !otelEnabled(cli.io.env)) return EXIT.ok;
		const linger = Number(cli.io.env.BOULDER_FLEET_LINGER_MS ?? DEFAULT_LINGER_MS);
		for (let round = 0; round < 3; round++) {
			await runShipper({
				env: cli.io.env,
				settings,
				clock: cli.clock,
				lingerMs: Number.isFinite(linger) ? linger : DEFAULT_LINGER_MS,
			});
			// Lines written while the lock was being let go: their hook saw it held and started no shipper.
			if ((await readBacklog(cli.io.env, cli.clock)).total === 0) break;
		}
	} catch {
		// Recorded in the shipper's status (`boulder fleet status`); a detached shipper has no one to tell.
	}
	return EXIT.ok;
}

async function status(cli: Cli, json: boolean): Promise<ExitCode> {
	const { fleetSettings, readBacklog } = await fleet();
	const settings = await fleetSettings(cli.io.env);
	const now = cli.clock.now();
	const [backlog, shipper] = await Promise.all([
		readBacklog(cli.io.env, cli.clock),
		readShipperStatus(cli.io.env, cli.clock),
	]);
	const report = {
		enabled: settings.enabled,
		machine: settings.machine,
		connection: settings.display,
		source: settings.source,
		running: shipperRunning(cli.io.env, now),
		backlog: backlog.total,
		lastError: shipper.lastError,
		lastShippedAt: shipper.lastShippedAt,
		lastRunAt: shipper.lastRunAt,
		retryAt: shipper.retryAt,
		worktrees: backlog.worktrees,
	};
	if (json) {
		cli.out(JSON.stringify(report, null, 2));
		return EXIT.ok;
	}
	const c = cli.colors();
	const lines = [
		settings.enabled
			? `${c.bold(settings.machine)} ships to ${settings.display}`
			: `${c.bold(settings.machine)} is in no fleet (set BOULDER_FLEET_URL or \`boulder fleet join URL\`)`,
		`backlog: ${report.backlog} record${report.backlog === 1 ? "" : "s"} not yet shipped${report.running ? " (a shipper is running)" : ""}`,
		`last shipped: ${report.lastShippedAt ? new Date(report.lastShippedAt).toISOString() : "never"}`,
	];
	if (report.lastError) {
		lines.push(c.yellow(`last error (${new Date(report.lastError.at).toISOString()}): ${report.lastError.message}`));
	}
	if (report.retryAt && report.retryAt > now) {
		lines.push(
			c.dim(
				`the hooks start no shipper before ${new Date(report.retryAt).toISOString()}; \`boulder fleet ship\` tries now`,
			),
		);
	}
	for (const one of report.worktrees.filter((w) => w.backlog > 0)) lines.push(`  ${one.root}: ${one.backlog}`);
	cli.out(lines.join("\n"));
	return EXIT.ok;
}

async function control(cli: Cli, action: FleetAction, machine: string, options: ControlOptions): Promise<ExitCode> {
	const settings = await settingsOrFail(cli);
	const targetKind: TargetKind = options.work
		? "work"
		: options.session
			? "session"
			: options.worktree
				? "worktree"
				: "machine";
	if (options.harness && !options.session) throw new BoulderError("usage", "--harness goes with --session");
	const target = options.work ?? options.session ?? options.worktree ?? null;
	const { connectFleet, machineKnown, postCommand, readCommand } = await fleet();
	const db = await connectFleet(settings);
	try {
		if (!(await machineKnown(db, machine))) {
			throw new BoulderError(
				"not-found",
				`no machine named "${machine}" ever shipped to this fleet; \`boulder status --fleet\` lists them`,
			);
		}
		let row = await postCommand(db, {
			machine,
			action,
			targetKind,
			target,
			harness: options.harness ?? null,
			fromMachine: settings.machine,
		});
		const waitS = options.wait === undefined ? 0 : options.wait === true ? 30 : Number(options.wait);
		const until = Date.now() + Math.max(0, waitS) * 1000;
		while (row.state === "pending" && Date.now() < until) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			row = (await readCommand(db, row.id)) ?? row;
		}
		const what = `${action} ${targetKind === "machine" ? machine : `${targetKind} ${target} on ${machine}`}`;
		if (row.state === "pending") {
			cli.out(
				`Sent ${what} (command ${row.id}); ${machine} applies it when its shipper next runs, before its next nudge after that.`,
			);
			return EXIT.ok;
		}
		cli.out(`${row.state === "applied" ? "Applied" : `Not applied (${row.state})`}: ${what}: ${row.result ?? ""}`);
		return row.state === "applied" ? EXIT.ok : EXIT.failure;
	} finally {
		await db.end().catch(() => {});
	}
}
