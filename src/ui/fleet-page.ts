/**
 * `boulder ui --fleet`: the fleet's dashboard, a page of its own beside the
 * local one, reading from PostgreSQL (docs/fleet.md). One route, `/fleet`,
 * with its script, its view as JSON, its live stream and its commands under
 * it. Live updates use `LISTEN/NOTIFY` as a doorbell: each notification
 * names the machine that shipped, and the page re-reads that machine (every
 * machine when it cannot tell, and on every reconnect), so a lost one loses
 * nothing. The view is the summaries (`fleet/summary.ts`), never whole
 * snapshots.
 *
 * Same guard as the local dashboard: 127.0.0.1 only, a random token per
 * start, changes only from the page's own origin. The connection is shown
 * redacted; no credential reaches the page.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { setCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import type { Clock } from "../core/clock.js";
import { BoulderError } from "../core/errors.js";
import { z } from "../core/zod.js";
import {
	CHANNEL_ROWS,
	connectFleet,
	type Db,
	FLEET_STATES,
	type FleetFilter,
	type FleetSettings,
	type FleetState,
	machineKnown,
	messageOf,
	postCommand,
	readFleet,
	redact,
} from "../fleet/index.js";
import { FLEET_PAGE_SCRIPT } from "./fleet-page-client.js";
import { cookieName, newToken, sameToken } from "./guard.js";
import { guarded } from "./guarded.js";

export interface FleetDashboardOptions {
	settings: FleetSettings;
	clock: Clock;
	port?: number;
	/** Heartbeat of an idle stream. */
	heartbeatMs?: number;
}

export interface FleetDashboard {
	url: string;
	port: number;
	token: string;
	close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boulder · fleet</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/fleet/app.css"></head>
<body><header><h1>boulder · fleet</h1><p id="summary">Reading the fleet…</p><p id="connection" class="dim"></p></header>
<nav aria-label="filters">
<label>Machine <select id="f-machine"><option value="">every machine</option></select></label>
<label>State <select id="f-state"><option value="">any state</option>${FLEET_STATES.map((s) => `<option value="${s}">${s}</option>`).join("")}</select></label>
<label>Harness <input id="f-harness" placeholder="claude-code, codex, …"></label>
</nav>
<p id="notice" role="status"></p><p id="problem" role="alert"></p>
<main id="machines"></main>
<script src="/fleet/app.js"></script></body></html>
`;

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f;background:#fbfbfd}
h1{font-size:1.3rem;margin:0}.dim,small{color:#5c5c66}nav{display:flex;gap:1rem;margin:1rem 0}
.machine{border:1px solid #d2d2d7;border-radius:8px;padding:.75rem 1rem;margin:.75rem 0;background:#fff;content-visibility:auto;contain-intrinsic-size:auto 40rem}
.machine h2{font-size:1.1rem;margin:.2rem 0}.worktree h3{font-size:.95rem;margin:.6rem 0 .3rem;font-weight:600}
.row{padding:.25rem 0;border-top:1px solid #eee}.last{color:#5c5c66;font-size:.9em}
.badge{display:inline-block;min-width:6rem;font-size:.8em;padding:0 .4rem;border-radius:4px;margin-right:.5rem;background:#eee}
.needs-person{background:#ffe4c4}.stuck{background:#ffd0d0}.rolling{background:#d8ecff}.done{background:#d9f5d9}
button{margin-left:.5rem;font:inherit;padding:.1rem .6rem}#notice[data-state=refused],#problem{color:#b00020}`;

/** More machines than this rang at once: the page re-reads the whole view. */
const MACHINES_PER_RING = 20;

const text = z.string().check(z.minLength(1), z.maxLength(500));
const CommandBody = z.strictObject({
	machine: text,
	action: z.enum(["stop", "go", "pause", "resume"]),
	targetKind: z.enum(["machine", "worktree", "session", "work"]),
	target: z.nullable(text),
	harness: z.nullable(text),
});

export async function startFleetDashboard(options: FleetDashboardOptions): Promise<FleetDashboard> {
	const { settings } = options;
	const db = await connectFleet(settings);
	const bell = await connectFleet(settings, { migrate: false });
	const listeners = new Set<(machine: string) => void>();
	bell.on("notification", (message) => {
		for (const listener of listeners) listener(message.payload ?? "");
	});
	await bell.query(`LISTEN ${CHANNEL_ROWS}`);
	const token = newToken();
	let port = 0;
	const from = `the dashboard of ${settings.machine}`;
	const app = fleetApp({
		token,
		port: () => port,
		db,
		settings,
		clock: options.clock,
		listeners,
		from,
		...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
	});
	const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
		const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: options.port ?? 0 }, () => resolve(started));
		started.once("error", (error: NodeJS.ErrnoException) =>
			reject(
				error.code === "EADDRINUSE" ? new BoulderError("usage", `--port ${options.port}: that port is in use`) : error,
			),
		);
	});
	port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}/fleet?token=${token}`,
		port,
		token,
		async close() {
			listeners.clear();
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				(server as { closeAllConnections?: () => void }).closeAllConnections?.();
			});
			await Promise.all([db.end().catch(() => {}), bell.end().catch(() => {})]);
		},
	};
}

interface FleetAppOptions {
	token: string;
	port(): number;
	db: Db;
	settings: FleetSettings;
	clock: Clock;
	/** Called with the machine that rang (a shipper's NOTIFY payload), "" when unknown. */
	listeners: Set<(machine: string) => void>;
	/** Who the target's log says sent a command. */
	from: string;
	heartbeatMs?: number;
}

function fleetApp(options: FleetAppOptions): Hono {
	const app = new Hono();
	app.use("*", guarded(options));

	app.get("/fleet", (c) => {
		if (sameToken(c.req.query("token"), options.token)) {
			setCookie(c, cookieName(options.port()), options.token, { path: "/", httpOnly: true, sameSite: "Strict" });
			return c.redirect("/fleet", 303);
		}
		return c.html(PAGE);
	});
	app.get("/fleet/app.js", (c) => c.body(FLEET_PAGE_SCRIPT, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
	app.get("/fleet/app.css", (c) => c.body(STYLE, 200, { "Content-Type": "text/css; charset=utf-8" }));

	app.get("/fleet/view", async (c) => {
		const state = c.req.query("state");
		if (state && !FLEET_STATES.includes(state as FleetState)) return c.json({ message: `no state "${state}"` }, 400);
		const filter: FleetFilter = {
			...(c.req.query("machine") ? { machine: c.req.query("machine") as string } : {}),
			...(state ? { state: state as FleetState } : {}),
			...(c.req.query("harness") ? { harness: c.req.query("harness") as string } : {}),
		};
		try {
			const report = await readFleet(options.db, filter, options.clock.now());
			// A re-read of the machine that rang (`part`) needs no list of every machine.
			if (c.req.query("part")) return c.json({ ...report, connection: options.settings.display });
			const all = await options.db.query<{ machine: string }>("SELECT machine FROM boulder_machines ORDER BY machine");
			return c.json({
				...report,
				connection: options.settings.display,
				allMachines: all.rows.map((row) => row.machine),
			});
		} catch (error) {
			return c.json({ message: redact(messageOf(error), options.settings.secrets) }, 503);
		}
	});

	app.get("/fleet/events", (c) =>
		streamSSE(c, async (stream) => {
			// The machines that rang since the last event: the page re-reads only them; "" (unknown) or many, everything.
			const rung = new Set<string>();
			let wake: (() => void) | null = null;
			const listener = (machine: string) => {
				rung.add(machine);
				wake?.();
			};
			options.listeners.add(listener);
			stream.onAbort(() => {
				options.listeners.delete(listener);
				wake?.();
			});
			while (!stream.aborted && !stream.closed) {
				if (rung.size > 0) {
					const machines = rung.has("") || rung.size > MACHINES_PER_RING ? null : [...rung];
					rung.clear();
					await stream.writeSSE({ event: "changed", data: JSON.stringify(machines) });
					continue;
				}
				await new Promise<void>((resolve) => {
					wake = resolve;
					setTimeout(resolve, options.heartbeatMs ?? 15_000).unref?.();
				});
				wake = null;
				if (rung.size === 0 && !stream.aborted) await stream.writeSSE({ event: "ping", data: "" });
			}
			options.listeners.delete(listener);
		}),
	);

	app.post(
		"/fleet/command",
		bodyLimit({
			maxSize: 16 * 1024,
			onError: (c) => c.json({ ok: false, message: "a command is at most 16 kB" }, 413),
		}),
		async (c) => {
			let body: unknown;
			try {
				body = await c.req.json();
			} catch {
				return c.json({ ok: false, message: "the body is not JSON" }, 400);
			}
			const parsed = CommandBody.safeParse(body);
			if (!parsed.success)
				return c.json({ ok: false, message: `not a command: ${z.prettifyError(parsed.error)}` }, 400);
			const command = parsed.data;
			if (!(await machineKnown(options.db, command.machine))) {
				return c.json({ ok: false, message: `no machine named "${command.machine}" in the fleet` }, 404);
			}
			const row = await postCommand(options.db, { ...command, fromMachine: options.from });
			const what = `${command.action} ${command.targetKind === "machine" ? command.machine : `${command.targetKind} ${command.target} on ${command.machine}`}`;
			return c.json({
				ok: true,
				id: row.id,
				message: `Sent: ${what}; ${command.machine} applies it when its shipper next runs.`,
			});
		},
	);

	app.notFound((c) => c.text("not found", 404));
	app.onError((error, c) =>
		c.text(`boulder's fleet dashboard met an error: ${redact(error.message, options.settings.secrets)}`, 500),
	);
	return app;
}
