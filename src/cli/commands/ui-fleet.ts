/** `boulder ui --fleet`: the fleet's dashboard (src/ui/fleet-page.ts), served on 127.0.0.1 until interrupted. */
import { BoulderError } from "../../core/errors.js";
import { fleetSettings } from "../../fleet/config.js";
import { startFleetDashboard } from "../../ui/index.js";
import type { Cli } from "../context.js";
import { EXIT, type ExitCode } from "../exit-codes.js";

export async function serveFleetUi(
	cli: Cli,
	options: { port?: number; open?: boolean },
	stopped: (signal: AbortSignal | undefined) => Promise<void>,
	openInBrowser: (url: string, cli: Cli) => void,
): Promise<ExitCode> {
	const settings = await fleetSettings(cli.io.env);
	if (!settings.enabled) {
		throw new BoulderError(
			"usage",
			"this machine is in no fleet: set BOULDER_FLEET_URL=postgres://… or run `boulder fleet join URL`",
		);
	}
	const dashboard = await startFleetDashboard({ settings, clock: cli.clock, port: options.port ?? 0 });
	const c = cli.colors();
	cli.out(
		[
			`${c.bold("boulder's fleet dashboard")} (${settings.display}): ${dashboard.url}`,
			c.dim("Only this machine can reach it, and only with the token in that address. Ctrl-C stops it."),
		].join("\n"),
	);
	if (options.open) openInBrowser(dashboard.url, cli);
	await stopped(cli.signal);
	await dashboard.close();
	return EXIT.ok;
}
