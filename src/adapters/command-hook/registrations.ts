/**
 * A harness's registration table as data, and the hook's watchdog derived
 * from it: one rule, so the watchdog follows whatever timeout an event gets.
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

/** Seconds: the turn's end may run a plan's verify commands (5 min each by default); the rest do a few file updates. */
export const STOP_TIMEOUT_SECONDS = 900;
export const HOOK_TIMEOUT_SECONDS = 60;

/** What a registration's command passes the hook program. */
export function wordOf(registration: Pick<HookRegistration, "event" | "word">): string {
	return registration.word ?? registration.event;
}

/**
 * How long the hook may run for `word` before it lets the agent stop: the registration's timeout (a word
 * no registration names, from a hand-written file: a minute's) less a tenth, at most 10 s, left to the harness.
 */
export function watchdogMs(registrations: readonly HookRegistration[], word: string | undefined): number {
	const registered = registrations.find((registration) => wordOf(registration) === word);
	const seconds = registered?.timeout ?? HOOK_TIMEOUT_SECONDS;
	return seconds * 1000 - Math.min(10_000, seconds * 100);
}
