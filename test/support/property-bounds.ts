/**
 * Property tests are bounded by time, with their count as the ceiling: in
 * `npm test` each `fc.assert` stops drawing new cases after
 * `PROPERTY_TIME_LIMIT_MS` (a run interrupted that way passes on the cases it
 * did check), so a loaded machine makes a property test check fewer cases, not
 * time out. `npm run fuzz` (`BOULDER_FUZZ=full`) lifts the bound and runs the
 * full counts.
 *
 * Every failure prints fast-check's seed and path. `BOULDER_PROPERTY_SEED=<n>`
 * replays a run: every `fc.assert` then starts from that seed.
 */
import fc from "fast-check";

/** How long one `fc.assert` may keep drawing cases in `npm test`. */
export const PROPERTY_TIME_LIMIT_MS = 3_000;

const full = process.env.BOULDER_FUZZ === "full";
const given = process.env.BOULDER_PROPERTY_SEED;
let seed: number | undefined;
if (given !== undefined && given.trim() !== "") {
	seed = Number(given);
	if (!Number.isSafeInteger(seed)) throw new Error(`BOULDER_PROPERTY_SEED must be an integer, not ${given}`);
}

fc.configureGlobal({
	...fc.readConfigureGlobal(),
	...(full ? {} : { interruptAfterTimeLimit: PROPERTY_TIME_LIMIT_MS, markInterruptAsFailure: false }),
	...(seed === undefined ? {} : { seed }),
});
