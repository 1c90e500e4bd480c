/**
 * A small, fast, deterministic 64-bit hash (FNV-1a over UTF-8) for
 * fingerprints: "did the list change?", not security. Pure JavaScript, so the
 * hook's start-up does not pay for loading node:crypto.
 *
 * Computed in four 16-bit limbs with plain numbers (the same value as 64-bit
 * arithmetic, which `hash64BigInt` spells out): a BigInt per byte made a
 * multi-MB plan item cost a hook seconds and most of it in garbage.
 */
const encoder = new TextEncoder();

/** 16 lowercase hex digits. */
export function hash64(text: string): string {
	// 0xcbf29ce484222325, lowest limb first.
	let h0 = 0x2325;
	let h1 = 0x8422;
	let h2 = 0x9ce4;
	let h3 = 0xcbf2;
	for (const byte of encoder.encode(text)) {
		h0 ^= byte;
		// × 0x100000001b3 = × 0x1b3 + × 2^40 (2^40 is limb 2's 2^8), modulo 2^64.
		const t0 = h0 * 0x1b3;
		const t1 = h1 * 0x1b3 + (t0 >>> 16);
		const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
		const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
		h0 = t0 & 0xffff;
		h1 = t1 & 0xffff;
		h2 = t2 & 0xffff;
		h3 = t3 & 0xffff;
	}
	return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, "0")).join("");
}

/** The same hash in 64-bit BigInt arithmetic, as FNV-1a is written: the reference `hash64` is tested against. */
export function hash64BigInt(text: string): string {
	let hash = 0xcbf29ce484222325n;
	for (const byte of encoder.encode(text)) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
	return hash.toString(16).padStart(16, "0");
}
