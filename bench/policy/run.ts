/**
 * Runs every contestant on every profile for every seed. Pure: the results
 * are a function of the options alone.
 */
import { CONTESTANTS, type Contestant } from "./policies/index.js";
import type { Profile } from "./profile.js";
import { PROFILES } from "./profiles/index.js";
import type { RunResult } from "./run-result.js";
import { type Caps, DEFAULT_CAPS, simulate } from "./world.js";

export interface BenchOptions {
	/** First seed; runs use `baseSeed`, `baseSeed + 1`, … */
	baseSeed: number;
	seedCount: number;
	profiles?: readonly Profile[];
	contestants?: readonly Contestant[];
	caps?: Caps;
}

export const DEFAULT_OPTIONS: BenchOptions = { baseSeed: 1, seedCount: 20 };

export function seedsOf(options: BenchOptions): number[] {
	return Array.from({ length: options.seedCount }, (_, index) => options.baseSeed + index);
}

export function runBench(options: BenchOptions): RunResult[] {
	const results: RunResult[] = [];
	for (const contestant of options.contestants ?? CONTESTANTS) {
		for (const profile of options.profiles ?? PROFILES) {
			for (const seed of seedsOf(options)) {
				results.push(simulate({ profile, seed, makePolicy: contestant.make, caps: options.caps ?? DEFAULT_CAPS }));
			}
		}
	}
	return results;
}
