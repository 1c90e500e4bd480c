/**
 * Reading values a harness hands over unchecked, and errors for a log line:
 * the two helpers every adapter needs (the older adapters still carry their
 * own copies of these two).
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
