/**
 * The dashboards' gate as one middleware: the local page (`app.ts`) and the
 * fleet's (`fleet-page.ts`) refuse the same requests (`guard.ts`: Host,
 * token, origin) and send the same security headers on every answer,
 * refusals included.
 */
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { checkHost, checkSameOrigin, checkToken, cookieName } from "./guard.js";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
	"Content-Security-Policy":
		"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"X-Frame-Options": "DENY",
	"Referrer-Policy": "no-referrer",
	"Cross-Origin-Opener-Policy": "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
	"Cache-Control": "no-store",
};

export function guarded(options: { port(): number; token: string }): MiddlewareHandler {
	return async (c, next) => {
		const port = options.port();
		const refusal =
			checkHost(c.req.header("host"), port) ??
			checkToken(
				{
					query: c.req.query("token"),
					cookie: getCookie(c, cookieName(port)),
					authorization: c.req.header("authorization"),
				},
				options.token,
			) ??
			checkSameOrigin(
				{ method: c.req.method, origin: c.req.header("origin"), fetchSite: c.req.header("sec-fetch-site") },
				port,
			);
		if (refusal) c.res = c.text(refusal.reason, refusal.status);
		else await next();
		for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
	};
}
