/**
 * The words every state module answers in: a read that found the file, found
 * none, or found it unusable (moved aside, never dropped), and an update's
 * result. A leaf of the state layer, so its files never import the store.
 */
export type { Clock } from "../core/clock.js";

/** A state file that could not be used: moved aside untouched, never dropped. */
export interface StateProblem {
	/** The file as it was named when it was found bad. */
	file: string;
	/** Where it was moved, or null if it could not be moved. */
	movedTo: string | null;
	reason: string;
	at: number;
}

export type Read<T> =
	| { kind: "ok"; value: T }
	| { kind: "missing" }
	/** Unparseable, wrong shape, or from a newer version: the scope fails closed. */
	| { kind: "unreadable"; problem: StateProblem };

export interface Update<R, T> {
	result: R;
	/** The new content, or null to leave the file as it is. */
	next: T | null;
}
