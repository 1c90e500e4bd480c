/**
 * `boulder log --follow`: polls the decision log through the store and hands
 * over the lines that are new since the last look. It reads the newest lines
 * each time and finds where it left off by the last record it handed over,
 * so a rotation of the log in between loses nothing.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { DecisionRecord } from "../core/decision-record.js";
import type { Store } from "../engine/store-types.js";

export interface FollowOptions {
	/** The last record already shown; null to show everything that comes. */
	after: DecisionRecord | null;
	/** Ends the follow; without one it runs until the process is interrupted. */
	signal?: AbortSignal;
	intervalMs?: number;
	/** How many of the newest lines each poll reads. */
	window?: number;
	onRecords(records: DecisionRecord[]): void;
	/** More lines came than one poll reads: some were not shown. */
	onGap?(): void;
}

export async function followDecisions(store: Store, options: FollowOptions): Promise<void> {
	const interval = options.intervalMs ?? 500;
	const window = options.window ?? 1000;
	let last = options.after;
	while (!options.signal?.aborted) {
		if (!(await pause(interval, options.signal))) return;
		const recent = await store.readDecisions({ limit: window });
		const { fresh, gap } = newSince(recent, last);
		if (gap) options.onGap?.();
		if (fresh.length > 0) {
			options.onRecords(fresh);
			last = fresh.at(-1) ?? last;
		}
	}
}

/**
 * The records after `last` in `recent`. Records carry no sequence number, so
 * `last` is found by content from the newest end; two identical records
 * (same time, same words) are the same event told twice and show once.
 */
export function newSince(
	recent: readonly DecisionRecord[],
	last: DecisionRecord | null,
): { fresh: DecisionRecord[]; gap: boolean } {
	if (last === null) return { fresh: [...recent], gap: false };
	const wanted = JSON.stringify(last);
	for (let index = recent.length - 1; index >= 0; index--) {
		if (JSON.stringify(recent[index]) === wanted) return { fresh: recent.slice(index + 1), gap: false };
	}
	const newer = recent.filter((record) => record.at >= last.at);
	return { fresh: newer, gap: newer.length === recent.length && recent.length > 0 };
}

/** false when the signal ended the wait. */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
	if (signal?.aborted) return false;
	try {
		await sleep(ms, undefined, signal ? { signal } : {});
		return true;
	} catch (error) {
		if (signal?.aborted) return false;
		throw error;
	}
}
