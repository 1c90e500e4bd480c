/**
 * What every command-hook harness's doctor says alike: which of the
 * dialect's registrations an installed settings file lacks, and how serious
 * that is. One rule for all: the hooks that are there still work, so a
 * missing event is a warning (reinstall), never a problem, in every harness.
 */
import { type HookRegistration, wordOf } from "./registrations.js";

/** How serious a missing registration is, in every harness's doctor. */
export const MISSING_EVENT_SEVERITY = "warn" as const;

/**
 * The registrations `installed` lacks, as the doctor names them: the event,
 * and the word when it is not the event's (`Stop (Watchdog)`).
 */
export function missingRegistrations(
	registrations: readonly HookRegistration[],
	installed: readonly { event: string; word?: string }[],
): string[] {
	return registrations
		.filter(
			(registration) =>
				!installed.some(
					(entry) => entry.event === registration.event && (entry.word ?? entry.event) === wordOf(registration),
				),
		)
		.map((registration) => (registration.word ? `${registration.event} (${registration.word})` : registration.event));
}
