import { describe, expect, it } from "vitest";
import { checkHost, checkSameOrigin, checkToken, cookieName, newToken, sameToken } from "../../src/ui/guard.js";

const TOKEN = newToken();
const none = { query: undefined, cookie: undefined, authorization: undefined };

describe("the dashboard's guard", () => {
	it("makes a new long random token each time", () => {
		const other = newToken();
		expect(TOKEN).toMatch(/^[\w-]{43}$/);
		expect(other).not.toBe(TOKEN);
	});

	it("accepts the token from the address, the port's cookie or a bearer header, and nothing else", () => {
		expect(checkToken({ ...none, query: TOKEN }, TOKEN)).toBeNull();
		expect(checkToken({ ...none, cookie: TOKEN }, TOKEN)).toBeNull();
		expect(checkToken({ ...none, authorization: `Bearer ${TOKEN}` }, TOKEN)).toBeNull();
		for (const wrong of [
			none,
			{ ...none, query: "" },
			{ ...none, query: `${TOKEN}x` },
			{ ...none, authorization: TOKEN },
		]) {
			expect(checkToken(wrong, TOKEN)).toMatchObject({ status: 401 });
		}
		expect(sameToken(TOKEN.slice(1), TOKEN)).toBe(false);
		expect(cookieName(4173)).toBe("boulder-ui-4173");
	});

	it("answers only the loopback address and port it serves (no DNS rebinding)", () => {
		expect(checkHost("127.0.0.1:4173", 4173)).toBeNull();
		for (const host of ["evil.test:4173", "localhost:4173", "127.0.0.1:80", "127.0.0.1", "", undefined]) {
			expect(checkHost(host, 4173)).toMatchObject({ status: 403 });
		}
	});

	it("lets reads through and requires the dashboard's own origin for a change", () => {
		const own = "http://127.0.0.1:4173";
		expect(checkSameOrigin({ method: "GET", origin: undefined, fetchSite: "cross-site" }, 4173)).toBeNull();
		expect(checkSameOrigin({ method: "POST", origin: own, fetchSite: "same-origin" }, 4173)).toBeNull();
		expect(checkSameOrigin({ method: "POST", origin: own, fetchSite: undefined }, 4173)).toBeNull();
		for (const bad of [
			{ origin: undefined, fetchSite: undefined },
			{ origin: "null", fetchSite: undefined },
			{ origin: "http://127.0.0.1:9999", fetchSite: "same-site" },
			{ origin: "http://evil.test", fetchSite: "cross-site" },
			{ origin: own, fetchSite: "same-site" },
		]) {
			expect(checkSameOrigin({ method: "POST", ...bad }, 4173)).toMatchObject({ status: 403 });
		}
	});
});
