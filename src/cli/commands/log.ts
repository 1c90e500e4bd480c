/** `boulder log [--follow] [--json] [-n N]`: the decision log, newest last. */
import type { Command } from "commander";
import { jsonLogLine, renderLogLine } from "../../present/render/log.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";
import { followDecisions } from "../follow-log.js";
import { positiveInt } from "../options.js";

export function registerLog(program: Command, cli: Cli): void {
	program
		.command("log")
		.description("print the decision log (every decision and event), newest last")
		.option("-f, --follow", "keep printing new lines until interrupted")
		.option("-n, --lines <n>", "how many of the newest lines", positiveInt, 20)
		.option("--json", "one JSON record per line")
		.action(async (options: { follow?: boolean; lines: number; json?: boolean }) => {
			const { store } = await cli.openState();
			const c = cli.colors(options.json);
			const print = (records: readonly Parameters<typeof jsonLogLine>[0][]) => {
				for (const record of records) cli.out(options.json ? jsonLogLine(record) : renderLogLine(record, c));
			};
			const records = await store.readDecisions({ limit: options.lines });
			print(records);
			if (options.follow) {
				await followDecisions(store, {
					after: records.at(-1) ?? null,
					...(cli.signal ? { signal: cli.signal } : {}),
					intervalMs: pollInterval(cli.io.env),
					onRecords: print,
					onGap: () => cli.err(cli.errColors.yellow("boulder: more lines came than one look reads; some were skipped")),
				});
			}
			cli.exitCode = EXIT.ok;
		});
}

/** BOULDER_LOG_POLL_MS lets tests follow quickly; people get a calm half second. */
function pollInterval(env: NodeJS.ProcessEnv): number {
	const value = Number(env.BOULDER_LOG_POLL_MS);
	return Number.isFinite(value) && value >= 10 ? value : 500;
}
