/**
 * Starts the dashboard: reads the fleet once, listens on 127.0.0.1 (never
 * another address), and keeps looking at the fleet until closed. The address
 * it answers carries a new random token each start.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Clock } from "../core/clock.js";
import { BoulderError } from "../core/errors.js";
import { Fleet, type WorktreeIndexOptions } from "../engine/fleet.js";
import { createApp } from "./app.js";
import { newToken } from "./guard.js";
import { LiveFleet } from "./live.js";

/** The only address the dashboard listens on. */
export const DASHBOARD_HOST = "127.0.0.1";

export interface DashboardOptions {
	env: NodeJS.ProcessEnv;
	clock: Clock;
	/** 0: any free port. */
	port?: number;
	/** How often the fleet is looked at; a change shows within this (plus the look's own time). */
	intervalMs?: number;
	index?: WorktreeIndexOptions;
	/** Told of errors a look met; the dashboard goes on. */
	onError?: (error: unknown) => void;
}

export interface Dashboard {
	/** The address to open, with its token. */
	url: string;
	port: number;
	token: string;
	close(): Promise<void>;
}

export async function startDashboard(options: DashboardOptions): Promise<Dashboard> {
	const fleet = new Fleet({ env: options.env, ...(options.index ? { index: options.index } : {}) });
	const live = new LiveFleet(fleet, { clock: options.clock, intervalMs: options.intervalMs ?? 250 });
	if (options.onError) live.onError = options.onError;
	await live.start();
	const token = newToken();
	let port = 0;
	const app = createApp({ token, port: () => port, live, actions: { clock: options.clock, env: options.env } });
	const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
		const started = serve({ fetch: app.fetch, hostname: DASHBOARD_HOST, port: options.port ?? 0 }, () =>
			resolve(started),
		);
		started.once("error", (error: NodeJS.ErrnoException) => {
			live.close();
			reject(
				error.code === "EADDRINUSE" || error.code === "EACCES"
					? new BoulderError(
							"usage",
							`--port ${options.port}: ${error.code === "EADDRINUSE" ? "that port is in use" : "that port may not be used"} on ${DASHBOARD_HOST}; choose another, or leave --port out for any free one`,
						)
					: error,
			);
		});
	});
	port = (server.address() as AddressInfo).port;
	return {
		url: `http://${DASHBOARD_HOST}:${port}/?token=${token}`,
		port,
		token,
		async close() {
			live.close();
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				(server as { closeAllConnections?: () => void }).closeAllConnections?.();
			});
		},
	};
}
