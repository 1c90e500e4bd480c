/**
 * A mistake in a plan file, at the line a person would fix: what the body
 * parser and the front-matter reader both report, and how it is printed.
 */

export interface PlanError {
	line: number;
	reason: string;
}

/** One line per error, `file:line: reason`, the shape editors and terminals link. */
export function planErrorsMessage(errors: readonly PlanError[], source: string): string {
	return errors.map((error) => `${source}:${error.line}: ${error.reason}`).join("\n");
}
