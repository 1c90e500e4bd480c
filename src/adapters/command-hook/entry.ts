/**
 * A command-hook harness's `hook` for its `HarnessAdapter`: the events it
 * answers, and a run that loads the harness's dialect and the family's
 * runtime only when a hook runs (the CLI loads every adapter on every
 * command). Imports nothing at load time.
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
