/**
 * What every boulder plugin instance in one OpenCode process shares, kept on
 * `globalThis` under a registered Symbol so that two instances share it even
 * when they come from two copies of this module (the plugin listed in both
 * the user's and the project's config, by path and by package name).
 *
 * - `hubs`: one hub per project folder; every instance of that folder forwards
 *   its hooks to it, so paired events and duplicate instances are handled once.
 * - `claims`: the delivery gate. A nudge's idempotency key is claimed here
 *   before anything is shown or sent; a second claim of the same key in this
 *   process fails while that delivery runs and for a while after. Across
 *   processes the engine's idempotency (the persisted decision and its
 *   duplicate guard) does the same job.
 *
 * The shape is versioned in the Symbol's name: a change that another copy
 * could misread gets a new name.
 */

const SHARED = Symbol.for("boulder-agent.opencode.shared.v1");

/**
 * A finished delivery's key stays claimed this long, to absorb a duplicate
 * that arrives just after; after that the key may be claimed again (the
 * engine reuses a key only after its state was reset, e.g. a corrupt file).
 */
export const CLAIM_LINGER_MS = 60_000;
const MAX_CLAIMS = 10_000;

export interface HubHandle {
	/** Adds one user of the hub; the returned function removes it again (idempotent). */
	attach(): () => void;
}

export interface Shared {
	hubs: Map<string, HubHandle>;
	/** Claimed keys: until when they stay claimed (Infinity while their delivery runs). */
	claims: Map<string, number>;
}

export function shared(): Shared {
	const holder = globalThis as typeof globalThis & { [SHARED]?: Shared };
	let value = holder[SHARED];
	if (!value) {
		value = { hubs: new Map(), claims: new Map() };
		holder[SHARED] = value;
	}
	return value;
}

/**
 * Claims `key` for this process: true when no delivery with this key runs or
 * finished within the linger time, false otherwise. Synchronous, so two
 * callers racing in one tick can never both win. The winner calls
 * `releaseClaim` when its delivery is over.
 */
export function claimKey(key: string, now: number = Date.now()): boolean {
	const { claims } = shared();
	const until = claims.get(key);
	if (until !== undefined && now < until) return false;
	claims.set(key, Number.POSITIVE_INFINITY);
	if (claims.size > MAX_CLAIMS) prune(claims, now);
	return true;
}

/** The delivery with this key is over (delivered, failed or cancelled): its claim lingers, then lapses. */
export function releaseClaim(key: string, now: number = Date.now()): void {
	const { claims } = shared();
	if (claims.has(key)) claims.set(key, now + CLAIM_LINGER_MS);
}

function prune(claims: Map<string, number>, now: number): void {
	for (const [key, until] of claims) {
		if (until <= now) claims.delete(key);
	}
}
