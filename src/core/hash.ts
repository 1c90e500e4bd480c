/**
 * A small, fast, deterministic 64-bit hash (FNV-1a over UTF-8) for
 * fingerprints: "did the list change?", not security. Pure JavaScript, so the
 * hook's start-up does not pay for loading node:crypto.
 */
const OFFSET = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const encoder = new TextEncoder();

/** 16 lowercase hex digits. */
export function hash64(text: string): string {
	let hash = OFFSET;
	for (const byte of encoder.encode(text)) {
		hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
	}
	return hash.toString(16).padStart(16, "0");
}
