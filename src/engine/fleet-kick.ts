/**
 * The hook's part in the fleet (docs/fleet.md): after a decision is logged,
 * start a detached shipper when this machine is in a fleet (or exports to
 * OpenTelemetry), none is running
 * and the last one is not backing off. No network, no `pg`: a couple of
 * lstats and, rarely, one spawn that the hook does not wait for.
 *
 * Contract: never throws and never waits; a failure to start the shipper is
 * left for `boulder fleet status` to show (the backlog grows).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fleetJoined, shipperWanted } from "../state/fleet-files.js";

/** A process starts the shipper at most this often (an in-process plugin logs many decisions). */
export const KICK_EVERY_MS = 2_000;

/** Whether the fleet is on for this environment: a URL in `BOULDER_FLEET_URL`, or `boulder fleet join`. */
export function fleetEnabled(env: Record<string, string | undefined>): boolean {
	if (env.BOULDER_FLEET === "off") return false;
	return Boolean(env.BOULDER_FLEET_URL) || fleetJoined(env);
}

/** Whether OpenTelemetry export is on: the standard variables name an endpoint (docs/fleet.md). */
export function otelEnabled(env: Record<string, string | undefined>): boolean {
	if (env.BOULDER_OTEL === "off" || env.OTEL_SDK_DISABLED === "true") return false;
	return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT);
}

/** `bin/boulder.js` of this package: two folders up from this module, in the sources, `dist/` and the bundles alike. */
export function boulderBin(): string {
	return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bin", "boulder.js");
}

/** A function to call after each logged decision; it starts the shipper when wanted. */
export function fleetKicker(env: NodeJS.ProcessEnv, now: () => number = Date.now): () => void {
	let last = Number.NEGATIVE_INFINITY;
	return () => {
		try {
			const at = now();
			if (at - last < KICK_EVERY_MS) return;
			if (env.BOULDER_FLEET_AUTOSHIP === "off" || !(fleetEnabled(env) || otelEnabled(env))) return;
			if (!shipperWanted(env, at)) return;
			last = at;
			const { spawn } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
			const child = spawn(process.execPath, [boulderBin(), "fleet", "ship", "--background"], {
				detached: true,
				stdio: "ignore",
				env,
			});
			child.on("error", () => {
				// Nothing to do: the backlog stays and `boulder fleet status` shows it.
			});
			child.unref();
		} catch {
			// Never into the hook: the records wait in the log for the next shipper.
		}
	};
}
