/**
 * Waits, within a deadline, until a file another process writes holds what a
 * hook needs: some harnesses run a hook before they have written the record
 * the hook is about (Copilot CLI's event log at agentStop). The reading is
 * repeated, further and further apart, until `holds` says it has what it
 * needs or the deadline passes; the caller then fails closed on the last
 * reading.
 *
 * Contract: never waits longer than `timeoutMs` plus one reading; a reading
 * that throws `retryable` errors (the file does not exist yet) is tried
 * again, any other error rejects at once. Returns the last reading, or
 * rejects with the last error when no reading ever succeeded.
 */
export interface AwaitOptions {
	/** How long to keep reading (default 10 s: far under any stop hook's timeout). */
	timeoutMs?: number;
	/** The first pause between readings (default 20 ms), doubled each time up to `maxIntervalMs`. */
	intervalMs?: number;
	/** The longest pause (default 250 ms). */
	maxIntervalMs?: number;
	sleep?: (ms: number) => Promise<void>;
	now?: () => number;
}

export const AWAIT_DEFAULTS = { timeoutMs: 10_000, intervalMs: 20, maxIntervalMs: 250 };

export interface AwaitResult<R> {
	reading: R;
	/** The reading holds what was waited for. */
	held: boolean;
	/** How many times the file was read. */
	readings: number;
}

export async function awaitRecord<R>(
	read: () => Promise<R>,
	holds: (reading: R) => boolean,
	retryable: (error: unknown) => boolean,
	options: AwaitOptions = {},
): Promise<AwaitResult<R>> {
	const now = options.now ?? Date.now;
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
	const timeoutMs = options.timeoutMs ?? AWAIT_DEFAULTS.timeoutMs;
	const maxInterval = options.maxIntervalMs ?? AWAIT_DEFAULTS.maxIntervalMs;
	const deadline = now() + timeoutMs;
	let interval = options.intervalMs ?? AWAIT_DEFAULTS.intervalMs;
	let last: { reading: R } | null = null;
	let lastError: unknown = null;
	for (let readings = 1; ; readings++) {
		try {
			const reading = await read();
			if (holds(reading)) return { reading, held: true, readings };
			last = { reading };
		} catch (error) {
			if (!retryable(error)) throw error;
			lastError = error;
		}
		const left = deadline - now();
		if (left <= 0) {
			if (last === null) throw lastError;
			return { reading: last.reading, held: false, readings };
		}
		await sleep(Math.min(interval, left));
		interval = Math.min(interval * 2, maxInterval);
	}
}
