/**
 * Logs what the user did from the CLI (started, paused, stopped…) as an event
 * in the decision log, through the engine, so `boulder why` can tell the
 * decisions that follow from it. A log that cannot be written is a warning on
 * stderr; the command still succeeds.
 */
import type { EventFields } from "../core/decision-record.js";
import { logEvent } from "../engine/event-log.js";
import type { Store } from "../engine/store-types.js";
import type { Cli } from "./context.js";

export async function recordAction(cli: Cli, store: Store, event: Omit<EventFields, "at" | "worktree">): Promise<void> {
	const warning = await logEvent(store, cli.clock, event);
	if (warning) cli.err(cli.errColors.yellow(`boulder: warning: ${warning}`));
}
