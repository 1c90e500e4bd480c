/**
 * `boulder ui [--port N] [--open]`: the live dashboard of every worktree
 * boulder knows, served on 127.0.0.1 until interrupted. It prints the address
 * with its access token; the dashboard itself lives in `src/ui/`.
 */
import { spawn } from "node:child_process";
import type { Command } from "commander";
import { startDashboard } from "../../ui/index.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { portNumber } from "../options.js";

interface UiOptions {
	port?: number;
	open?: boolean;
	fleet?: boolean;
}

export function registerUi(program: Command, cli: Cli): void {
	program
		.command("ui")
		.description("serve a live dashboard of every worktree's works, sessions and decisions on 127.0.0.1")
		.option("--port <n>", "the port to listen on (default: any free one)", portNumber)
		.option("--open", "open the dashboard in the default browser")
		.option("--fleet", "the fleet's dashboard: every machine, from its PostgreSQL (docs/fleet.md)")
		.action(async (options: UiOptions) => {
			if (options.fleet) {
				cli.exitCode = await (await import("./ui-fleet.js")).serveFleetUi(cli, options, stopped, openInBrowser);
				return;
			}
			const dashboard = await startDashboard({
				env: cli.io.env,
				clock: cli.clock,
				port: options.port ?? 0,
				onError: (error) =>
					cli.err(
						cli.errColors.yellow(
							`boulder: warning: the dashboard could not look at the worktrees: ${error instanceof Error ? error.message : String(error)}`,
						),
					),
			});
			const c = cli.colors();
			cli.out(
				[
					`${c.bold("boulder's dashboard")}: ${dashboard.url}`,
					c.dim("Only this machine can reach it, and only with the token in that address. Ctrl-C stops it."),
				].join("\n"),
			);
			if (options.open) openInBrowser(dashboard.url, cli);
			await stopped(cli.signal);
			await dashboard.close();
			cli.exitCode = EXIT.ok;
		});
}

/** Until the signal ends it, or the person presses Ctrl-C (or the process is told to stop). */
function stopped(signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			process.off("SIGINT", done);
			process.off("SIGTERM", done);
			signal?.removeEventListener("abort", done);
			resolve();
		};
		if (signal?.aborted) return done();
		signal?.addEventListener("abort", done);
		process.once("SIGINT", done);
		process.once("SIGTERM", done);
	});
}

function openInBrowser(url: string, cli: Cli): void {
	const [command, args] =
		process.platform === "darwin"
			? ["open", [url]]
			: process.platform === "win32"
				? ["cmd", ["/c", "start", "", url]]
				: ["xdg-open", [url]];
	try {
		const child = spawn(command as string, args as string[], { stdio: "ignore", detached: true });
		child.on("error", () => cli.err(cli.errColors.yellow(`boulder: could not open a browser; open ${url} yourself`)));
		child.unref();
	} catch {
		cli.err(cli.errColors.yellow(`boulder: could not open a browser; open ${url} yourself`));
	}
}
