/**
 * `boulder hook <harness> <event>`: runs one hook event of a command-hook
 * harness, reading the harness's JSON on stdin. Installed hooks run the
 * bundled hook program directly (faster than the CLI); this is the same code,
 * for a global install or a person trying an input by hand.
 */
import type { Command } from "commander";
import { BoulderError } from "../../core/errors.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { adapterOf } from "./install.js";

/** The exit code that wakes the agent with the hook's stderr. */
const WAKE = 2;

export function registerHook(program: Command, cli: Cli): void {
	const hooked = cli.adapters.all.filter((adapter) => adapter.hook !== undefined).map((adapter) => adapter.name);
	program
		.command("hook")
		.description("run one harness hook event: reads the harness's JSON on stdin (the installed hooks call this)")
		.argument("<harness>", `the harness: ${hooked.join(", ")}`)
		.argument("<event>", "the hook event, e.g. Stop")
		.action(async (harness: string, event: string) => {
			const hook = adapterOf(cli, harness).hook;
			if (!hook) {
				throw new BoulderError(
					"usage",
					`${harness} runs boulder inside the harness and has no hooks to run; the harnesses with hooks: ${hooked.join(", ")}`,
				);
			}
			const code = await hook.run(event, {
				stdin: process.stdin,
				stdout: cli.io.stdout,
				stderr: cli.io.stderr,
				env: cli.io.env,
				cwd: cli.io.cwd,
			});
			// A hook never fails its harness: whatever happened is in the decision log. Its only other
			// code is the one that wakes the agent (Claude Code's watcher).
			cli.exitCode = code === WAKE ? WAKE : EXIT.ok;
		});
}
