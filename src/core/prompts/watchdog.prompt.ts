// Appended to a nudge when a subagent or background task ran past its time limit. Static text with a few fields.
export const WATCHDOG_NOTE = `A subagent or background task has been running past its time limit, and boulder no longer waits for it:
{{tasks}}
{{what}}`;

export const WATCHDOG_CHECK =
	"Treat it as failed, or check on it (read its output, resume or restart it), and go on with the work.";

export const WATCHDOG_ABORTED =
	"boulder aborted it. Treat its work as unfinished: check what it left, and hand the item out again or do it another way.";
