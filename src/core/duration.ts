/**
 * Durations as people write them (`90s`, `5m`, `1m30s`), read into
 * milliseconds: a plan's `verify_timeout`, and any later setting that takes one.
 */

/**
 * A positive duration in whole milliseconds: a bare number is milliseconds;
 * otherwise one or more `<number><unit>` runs with units ms, s, m, h
 * (`90s`, `5m`, `1m30s`, `1.5h`). Returns null for anything else or zero.
 */
export function parseDurationMs(text: string): number | null {
	const value = text.trim();
	if (/^\d+$/.test(value)) {
		const ms = Number(value);
		return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
	}
	if (!/^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/.test(value)) return null;
	const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
	let total = 0;
	for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
		total += Number(amount) * (unitMs[unit ?? ""] ?? 0);
	}
	const ms = Math.round(total);
	return ms > 0 && Number.isSafeInteger(ms) ? ms : null;
}
