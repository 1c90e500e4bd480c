/** Small readers of untrusted JSON values, for every adapter's hook input. */

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A non-empty string, or null. */
export function nonEmptyText(value: unknown): string | null {
	return typeof value === "string" && value.trim() !== "" ? value : null;
}
