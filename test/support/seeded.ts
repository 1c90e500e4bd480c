/**
 * A seeded stream of random numbers for a test that draws its own (when to
 * kill a writer, which write to kill it in), so a run can be replayed: the
 * test prints its seed, and `BOULDER_FUZZ_SEED=<n>` replays it
 * (test/fuzz/scale.ts; `npm test` uses a fixed seed, `npm run fuzz` a new one).
 */
import { Rng, seedFrom } from "../../bench/policy/prng.js";
import { SEED } from "../fuzz/scale.js";

export interface Seeded {
	seed: number;
	/** Uniform in [0, 1), like Math.random(). */
	random: () => number;
	/** What to set to replay this run: for a failure message. */
	replay: string;
}

/** A stream of its own for `label` (two tests never share one), from the run's seed; prints that seed. */
export function seeded(label: string): Seeded {
	const rng = new Rng(seedFrom(label, SEED));
	const random = () => rng.next();
	const replay = `BOULDER_FUZZ_SEED=${SEED}`;
	console.info(`${label}: seed ${SEED} (replay with ${replay})`);
	return { seed: SEED, random, replay };
}
