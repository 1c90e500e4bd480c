/**
 * A harness's `hook` entry: it loads the dialect and the runtime only when a
 * hook runs (the CLI loads every adapter on every command).
 */
import type { HookEntry } from "../types.js";
import type { CommandHookDialect } from "./dialect.js";

export function hookEntry(events: readonly string[], load: () => Promise<{ dialect: CommandHookDialect }>): HookEntry {
	return {
		events,
		run: async (event, streams) => {
			const [{ runDialect }, { dialect }] = await Promise.all([import("./runtime.js"), load()]);
			return runDialect([event], streams, dialect);
		},
	};
}
