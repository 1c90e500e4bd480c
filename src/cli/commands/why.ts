/** `boulder why [--session ID] [-n N] [--json]`: the last decisions, in plain words. */
import type { Command } from "commander";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { positiveInt } from "../options.js";
import { renderWhy, whyLines } from "../render/why.js";
import { EXPLAINING_EVENTS } from "../why-text.js";

/** Events are mixed in with the decisions; reading this many lines per wanted line leaves room for them. */
const LINES_READ_PER_SHOWN = 20;

export function registerWhy(program: Command, cli: Cli): void {
	program
		.command("why")
		.description("explain the last decisions: why the agent was (or was not) continued")
		.option("--session <id>", "only this harness session's decisions")
		.option("-n, --lines <n>", "how many decisions", positiveInt, 10)
		.option("--json", "machine-readable output")
		.action(async (options: { session?: string; lines: number; json?: boolean }) => {
			const { store } = await cli.openState();
			const read = await store.readDecisions({
				limit: Math.max(options.lines * LINES_READ_PER_SHOWN, 200),
				...(options.session !== undefined ? { session: options.session } : {}),
			});
			const shown = read
				.filter((record) => record.kind !== "event" || EXPLAINING_EVENTS.has(record.reason))
				.slice(-options.lines);
			const now = cli.clock.now();
			cli.out(options.json ? JSON.stringify(whyLines(shown, now), null, 2) : renderWhy(shown, now, cli.colors()));
			cli.exitCode = EXIT.ok;
		});
}
