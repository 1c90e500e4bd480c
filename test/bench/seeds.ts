/**
 * The seeds the policy-bench tests play. `npm test` plays two: a smoke test
 * that every profile, measurement and target still holds on a run or two.
 * `npm run test:bench` plays twenty (`BOULDER_BENCH_SEEDS=<n>` any number),
 * and `npm run bench:policy` plays the full profiles and writes the results.
 */
const given = process.env.BOULDER_BENCH_SEEDS;
const count = given === undefined || given.trim() === "" ? 2 : Number(given);
if (!Number.isSafeInteger(count) || count < 1) {
	throw new Error(`BOULDER_BENCH_SEEDS must be a whole number of seeds, at least 1, not ${given}`);
}

/** Seeds 1..count. */
export const SEEDS: readonly number[] = Array.from({ length: count }, (_, index) => index + 1);
