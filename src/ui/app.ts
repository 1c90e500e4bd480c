/**
 * The dashboard's HTTP face (Hono): the page, its script and style (all
 * served from the package, nothing from the network), the view as JSON, the
 * live stream (server-sent events) and the actions. Every request passes the
 * guard first (`guard.ts`); every answer forbids framing, sniffing, caching
 * and any script or style not served from here.
 */
import { readFile } from "node:fs/promises";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { setCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { z } from "../core/zod.js";
import { type ActionContext, runAction } from "./actions.js";
import { cookieName, sameToken } from "./guard.js";
import { guarded } from "./guarded.js";
import type { LiveFleet } from "./live.js";
import { pageHtml } from "./page.js";
import { PAGE_MODULES } from "./page-modules.js";
import { PAGE_STYLE } from "./page-style.js";
import type { LiveMessage } from "./view-types.js";

export interface AppOptions {
	token: string;
	/** The port the server listens on, known once it listens. */
	port(): number;
	live: LiveFleet;
	actions: Omit<ActionContext, "worktree">;
	/** How often an idle stream says it is alive, so a page can tell a dead server. */
	heartbeatMs?: number;
}

const text = z.string().check(z.minLength(1));

/** The largest `POST /api/action` body read: an action names a worktree, a session and a work (paths and ids). */
export const MAX_ACTION_BYTES = 64 * 1024;

const ActionBody = z.strictObject({
	action: z.enum(["stop", "go", "pause", "resume", "abandon"]),
	worktree: text,
	session: z.optional(z.strictObject({ harness: text, sessionId: text })),
	work: z.optional(text),
});

export function createApp(options: AppOptions): Hono {
	const app = new Hono();
	const distRoot = new URL("../", import.meta.url);

	app.use("*", guarded(options));
	// The page, its scripts and the view are text that shrinks well; the event stream is never compressed (it would be held back).
	app.use("*", compress());

	app.get("/", (c) => {
		const port = options.port();
		if (sameToken(c.req.query("token"), options.token)) {
			// The token moves from the address bar into a cookie of this port only, then the address is clean.
			setCookie(c, cookieName(port), options.token, { path: "/", httpOnly: true, sameSite: "Strict" });
			return c.redirect("/", 303);
		}
		return c.html(pageHtml(options.live.view()));
	});

	app.get("/assets/app.css", (c) => c.body(PAGE_STYLE, 200, { "Content-Type": "text/css; charset=utf-8" }));

	app.get("/assets/*", async (c) => {
		const wanted = c.req.path.slice("/assets/".length);
		if (!PAGE_MODULES.includes(wanted)) return c.text("not found", 404);
		try {
			const text = await readFile(new URL(wanted, distRoot), "utf8");
			return c.body(text, 200, { "Content-Type": "text/javascript; charset=utf-8" });
		} catch {
			// Run from the sources rather than the build: the page's script is built by `npm run build`.
			return c.text(`${wanted} is not built; run \`npm run build\``, 404);
		}
	});

	app.get("/api/view", (c) => c.json(options.live.view()));

	app.get("/api/items", (c) => {
		const work = options.live.fleet
			.worktree(c.req.query("worktree") ?? "")
			?.works.find((entry) => entry.work.id === c.req.query("work"));
		return work ? c.json(work.items) : c.json({ message: "no such work in the worktrees shown" }, 404);
	});

	app.get("/api/events", (c) =>
		streamSSE(c, async (stream) => {
			const queue: LiveMessage[] = [];
			let wake: (() => void) | null = null;
			const unsubscribe = options.live.subscribe((message) => {
				queue.push(message);
				wake?.();
			});
			stream.onAbort(() => {
				unsubscribe();
				wake?.();
			});
			// A page that already holds the current view (it fetched `/api/view`) is not sent it again.
			if (c.req.query("after") !== String(options.live.version)) {
				await stream.writeSSE({ event: "live", data: JSON.stringify({ type: "snapshot", view: options.live.view() }) });
			}
			while (!stream.aborted && !stream.closed) {
				const message = queue.shift();
				if (message) {
					await stream.writeSSE({ event: "live", data: JSON.stringify(message) });
					continue;
				}
				await new Promise<void>((resolve) => {
					wake = resolve;
					setTimeout(resolve, options.heartbeatMs ?? 15_000).unref?.();
				});
				wake = null;
				if (queue.length === 0 && !stream.aborted) await stream.writeSSE({ event: "ping", data: "" });
			}
			unsubscribe();
		}),
	);

	// An action is a few short fields: a body past the limit is refused before more of it is read.
	const limit = bodyLimit({
		maxSize: MAX_ACTION_BYTES,
		onError: (c) => c.json({ ok: false, message: `an action is at most ${MAX_ACTION_BYTES} bytes` }, 413),
	});
	app.post("/api/action", limit, async (c) => {
		if (!(c.req.header("content-type") ?? "").startsWith("application/json")) {
			return c.json({ ok: false, message: "an action is a JSON body" }, 415);
		}
		let body: unknown;
		try {
			body = await c.req.json();
		} catch {
			return c.json({ ok: false, message: "the body is not JSON" }, 400);
		}
		const parsed = ActionBody.safeParse(body);
		if (!parsed.success) return c.json({ ok: false, message: `not an action: ${z.prettifyError(parsed.error)}` }, 400);
		const answer = await runAction(parsed.data, {
			...options.actions,
			worktree: (root) => options.live.fleet.worktree(root),
		});
		await options.live.lookNow();
		return c.json(answer, answer.ok ? 200 : 409);
	});

	app.notFound((c) => c.text("not found", 404));
	app.onError((error, c) => c.text(`boulder's dashboard met an error: ${error.message}`, 500));
	return app;
}
