/** The real clock, for the faces' defaults: the engine and the faces take a `Clock` so tests can set the time. */
export type { Clock } from "../core/clock.js";
export { systemClock } from "../state/store.js";
