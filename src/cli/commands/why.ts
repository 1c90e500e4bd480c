/** `boulder why [--session ID] [-n N] [--json]`: the last decisions, in plain words. */
import type { Command } from "commander";
import { readWhy } from "../../engine/read-models.js";
import { resolveSession } from "../../engine/session-lookup.js";
import { renderWhy, whyLines } from "../../present/render/why.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { positiveInt } from "../options.js";

export function registerWhy(program: Command, cli: Cli): void {
	program
		.command("why")
		.description("explain the last decisions: why the agent was (or was not) continued")
		.option("--session <id>", "only this session's decisions: its id, or the start of it that no other session shares")
		.option("-n, --lines <n>", "how many decisions", positiveInt, 10)
		.option("--json", "machine-readable output")
		.action(async (options: { session?: string; lines: number; json?: boolean }) => {
			const { store } = await cli.openState();
			// A session named by a unique prefix is that session; one boulder has not seen is refused.
			const session =
				options.session !== undefined
					? (await resolveSession(store, options.session, undefined, { anyHarness: true })).sessionId
					: undefined;
			const shown = await readWhy(store, {
				lines: options.lines,
				...(session !== undefined ? { session } : {}),
			});
			const now = cli.clock.now();
			cli.out(options.json ? JSON.stringify(whyLines(shown, now), null, 2) : renderWhy(shown, now, cli.colors()));
			cli.exitCode = EXIT.ok;
		});
}
