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
 *   process fails. Across processes the engine's idempotency (the persisted
 *   decision and its duplicate guard) does the same job.
 *
 * The shape is versioned in the Symbol's name: a change that another copy
 * could misread gets a new name.
 */

const SHARED = Symbol.for("boulder-agent.opencode.shared.v1");

/** A claimed key is forgotten after this long; the engine never reuses a key within a session anyway. */
export const CLAIM_TTL_MS = 60 * 60 * 1000;
const MAX_CLAIMS = 10_000;

export interface HubHandle {
	/** Adds one user of the hub; the returned function removes it again (idempotent). */
	attach(): () => void;
}

export interface Shared {
	hubs: Map<string, HubHandle>;
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
 * Claims `key` for this process: true the first time, false for every later
 * claim within the TTL. Synchronous, so two callers racing in one tick can
 * never both win.
 */
export function claimOnce(key: string, now: number = Date.now()): boolean {
	const { claims } = shared();
	const at = claims.get(key);
	if (at !== undefined && now - at < CLAIM_TTL_MS) return false;
	claims.set(key, now);
	if (claims.size > MAX_CLAIMS) prune(claims, now);
	return true;
}

function prune(claims: Map<string, number>, now: number): void {
	for (const [key, at] of claims) {
		if (now - at >= CLAIM_TTL_MS || claims.size > MAX_CLAIMS / 2) claims.delete(key);
		else break;
	}
}
