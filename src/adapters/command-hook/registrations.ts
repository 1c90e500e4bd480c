/**
 * A command-hook harness's registration table as data (which events, with
 * what matcher and timeout), and the hook process's watchdog derived from it:
 * one rule for every harness, so the watchdog follows whatever timeout a
 * dialect registers an event with.
 */

export interface HookRegistration<E extends string = string> {
	event: E;
	/** What the command passes the hook program: the event's name unless said otherwise (Claude Code's `Watchdog`). */
	word?: string;
	/** A tool-name pattern (PreToolUse, PostToolUse, AfterTool); absent: every occurrence of the event. */
	matcher?: string;
	/** Seconds: the harness kills a hook that outlives it. */
	timeout: number;
	/** Runs in the background after the event; exiting 2 wakes the agent with its stderr (Claude Code). */
	asyncRewake?: true;
}

/**
 * The family's timeouts, in seconds: the event that ends a turn may run a
 * plan's verify commands (5 minutes each by default), so it gets 15 minutes;
 * every other hook does a few locked file updates and gets a minute.
 */
export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

/** The timeout of an event no registration names (a hand-written settings file may still run it). */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = HOOK_TIMEOUT_SECONDS;

/** What a registration's command passes the hook program. */
export function wordOf(registration: Pick<HookRegistration, "event" | "word">): string {
	return registration.word ?? registration.event;
}

/**
 * How long the hook process may run for `word` before it lets the agent stop,
 * printing nothing: the registration's timeout less a tenth of it, at most ten
 * seconds, left for the harness to read what was printed. A word no
 * registration names gets the default timeout's.
 */
export function watchdogMs(registrations: readonly HookRegistration[], word: string | undefined): number {
	const registered = registrations.find((registration) => wordOf(registration) === word);
	const seconds = registered?.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
	return seconds * 1000 - Math.min(10_000, seconds * 100);
}
