/**
 * Logs what the user did from the CLI (started, paused, stopped…) as an event
 * in the decision log, so `boulder why` can tell the decisions that follow
 * from it. The action itself has already happened: a log that cannot be
 * written is reported on stderr, and the command still succeeds.
 */
import type { Store } from "../state/store.js";
import type { Cli } from "./context.js";

export async function recordAction(
	cli: Cli,
	store: Store,
	event: { reason: string; detail: string; work?: string | null; harness?: string | null; session?: string | null },
): Promise<void> {
	try {
		await store.appendDecision({
			v: 1,
			at: cli.clock.now(),
			worktree: store.worktree,
			scope: null,
			harness: event.harness ?? null,
			session: event.session ?? null,
			work: event.work ?? null,
			kind: "event",
			reason: event.reason,
			detail: event.detail,
		});
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		cli.err(
			cli.errColors.yellow(`boulder: warning: done, but it could not be written to the decision log: ${message}`),
		);
	}
}
