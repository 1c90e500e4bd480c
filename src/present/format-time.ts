/** How times and durations look to a person: local clock times, compact durations. */

/**
 * `1h 2m 3s`: the largest unit and every unit below it, so widths line up in
 * a list; days drop the seconds. Under a second is `0s`.
 */
export function formatElapsed(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const days = Math.floor(total / 86_400);
	const hours = Math.floor((total % 86_400) / 3600);
	const minutes = Math.floor((total % 3600) / 60);
	const seconds = total % 60;
	if (days > 0) return `${days}d ${hours}h ${minutes}m`;
	if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
	if (minutes > 0) return `${minutes}m ${seconds}s`;
	return `${seconds}s`;
}

/**
 * A setting's duration as people say it: `3 h`, `1 h 30 min`, `20 min`,
 * `5 s`, `300 ms`; each unit that is not zero, largest first.
 */
export function formatDuration(ms: number): string {
	if (!Number.isFinite(ms) || ms < 0) return String(ms);
	if (ms === 0) return "0 s";
	const units: Array<[string, number]> = [
		["d", 86_400_000],
		["h", 3_600_000],
		["min", 60_000],
		["s", 1000],
		["ms", 1],
	];
	const parts: string[] = [];
	let left = Math.round(ms);
	for (const [unit, size] of units) {
		const amount = Math.floor(left / size);
		if (amount > 0) parts.push(`${amount} ${unit}`);
		left -= amount * size;
	}
	return parts.join(" ");
}

/** `14:02` today (local time); `2026-11-29 14:02` on any other day. */
export function formatWhen(at: number, now: number): string {
	const when = new Date(at);
	const clock = `${pad(when.getHours())}:${pad(when.getMinutes())}`;
	return sameLocalDay(when, new Date(now)) ? clock : `${localDate(when)} ${clock}`;
}

/** `2026-11-30 14:02:05` in local time, for the log. */
export function formatStamp(at: number): string {
	const when = new Date(at);
	return `${localDate(when)} ${pad(when.getHours())}:${pad(when.getMinutes())}:${pad(when.getSeconds())}`;
}

function localDate(when: Date): string {
	return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
}

function sameLocalDay(a: Date, b: Date): boolean {
	return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

function pad(value: number): string {
	return String(value).padStart(2, "0");
}
