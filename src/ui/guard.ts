/**
 * Who may talk to the dashboard. It listens on 127.0.0.1 only, but a web page
 * in the user's browser can still reach that address, so every request must
 * carry the access token printed by `boulder ui` (in the URL, then in a
 * cookie of this port), name exactly the address it serves in `Host` (a page
 * that rebinds its own name to 127.0.0.1 sends its own name), and every
 * request that changes something must come from the dashboard's own page
 * (`Origin` and `Sec-Fetch-Site`), so no other site can press its buttons.
 *
 * Pure: the request's parts are arguments.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";

export type Refusal = { status: 401 | 403; reason: string } | null;

/** 32 random bytes, URL-safe. */
export function newToken(): string {
	return randomBytes(32).toString("base64url");
}

/** The cookie holding the token: one per port, so two dashboards do not overwrite each other's. */
export function cookieName(port: number): string {
	return `boulder-ui-${port}`;
}

export function sameToken(given: string | null | undefined, token: string): boolean {
	if (typeof given !== "string") return false;
	const a = Buffer.from(given);
	const b = Buffer.from(token);
	return a.length === b.length && timingSafeEqual(a, b);
}

/** The `Host` must be the address and port the dashboard listens on, as the printed URL names them. */
export function checkHost(host: string | null | undefined, port: number): Refusal {
	if (host === `127.0.0.1:${port}`) return null;
	return {
		status: 403,
		reason: `refused: this dashboard answers only requests for 127.0.0.1:${port}, not ${JSON.stringify(host ?? "")} (a page that rebinds its own name to this machine is turned away)`,
	};
}

export interface TokenSources {
	query: string | null | undefined;
	cookie: string | null | undefined;
	authorization: string | null | undefined;
}

export function checkToken(sources: TokenSources, token: string): Refusal {
	const bearer = sources.authorization?.startsWith("Bearer ") ? sources.authorization.slice(7) : null;
	if ([sources.query, sources.cookie, bearer].some((given) => sameToken(given, token))) return null;
	return {
		status: 401,
		reason: "refused: open the address `boulder ui` printed (it carries the access token); this one has no valid token",
	};
}

export interface OriginSources {
	method: string;
	origin: string | null | undefined;
	fetchSite: string | null | undefined;
}

/** Reading needs no more than the token; a change must come from the dashboard's own page. */
export function checkSameOrigin(sources: OriginSources, port: number): Refusal {
	if (sources.method === "GET" || sources.method === "HEAD") return null;
	const own = `http://127.0.0.1:${port}`;
	if (sources.origin !== own) {
		return {
			status: 403,
			reason: `refused: a change must come from the dashboard's own page (${own}), not from ${JSON.stringify(sources.origin ?? "no origin")}`,
		};
	}
	if (sources.fetchSite && sources.fetchSite !== "same-origin") {
		return {
			status: 403,
			reason: `refused: a change must come from the dashboard's own page, not ${sources.fetchSite}`,
		};
	}
	return null;
}
