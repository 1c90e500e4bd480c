/**
 * The one way anything learns the time. The core never reads it: its
 * functions take `now` as an argument; the engine and the faces hold a Clock
 * so tests can set the time.
 */
export interface Clock {
	now(): number;
}
