/**
 * The one error class of boulder. `code` is stable and machine-readable; the
 * message names what is wrong and where, in words a user can act on.
 */
export type BoulderErrorCode =
	| "config-invalid"
	| "config-unreadable"
	| "plan-missing"
	| "plan-invalid"
	/** A plan with no open item: there is nothing to start. */
	| "plan-done"
	| "state-unreadable"
	| "state-future-version"
	| "lock-timeout"
	| "settings-invalid"
	| "usage"
	| "not-found"
	/** The fleet's database cannot be reached (docs/fleet.md). */
	| "fleet-unreachable"
	/** The fleet's database was set up by a newer boulder. */
	| "fleet-schema-newer"
	| "internal";

export class BoulderError extends Error {
	readonly code: BoulderErrorCode;

	constructor(code: BoulderErrorCode, message: string, options?: { cause?: unknown }) {
		super(message, options);
		this.name = "BoulderError";
		this.code = code;
	}
}

export function isBoulderError(value: unknown): value is BoulderError {
	return value instanceof BoulderError;
}
