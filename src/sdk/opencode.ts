/**
 * `boulder-agent/sdk/opencode`: boulder in a program that runs OpenCode
 * through its SDK (`createOpencode({ config })` from `@opencode-ai/sdk`).
 * The server OpenCode starts loads boulder's plugin, the same in-process
 * adapter `boulder install opencode` installs: nothing else changes.
 *
 * OpenCode's `config.plugin` lists modules to load, so the entry hands over
 * where this copy's plugin is (`BOULDER_PLUGIN`) and a helper that adds it to
 * a config (`withBoulder`); the plugin function itself is exported too, for a
 * program that loads plugins its own way. The plugin nudges the session from
 * inside the server, so a program learns that boulder has let it stop from
 * the decision log (`untilSettled`).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type EngineSource, fileEngines } from "./engines.js";

/** The OpenCode plugin function itself (what `BOULDER_PLUGIN` loads), for a program that loads plugins its own way. */
export { BoulderPlugin } from "../adapters/opencode/plugin.js";

/** The `file://` URL of this copy's OpenCode plugin, for `config.plugin`. */
export const BOULDER_PLUGIN: string = new URL("../adapters/opencode/plugin.js", import.meta.url).href;

/** The part of OpenCode's `Config` this entry touches; every other key is kept as it is. */
export interface OpencodeConfigWithPlugins {
	plugin?: string[];
}

/**
 * `config` with boulder's plugin added to `plugin` (once; a config that lists
 * it already is returned as it is): `createOpencode({ config: withBoulder({ model }) })`.
 */
export function withBoulder<C extends OpencodeConfigWithPlugins>(config?: C): C & { plugin: string[] } {
	const plugins = config?.plugin ?? [];
	const plugin = plugins.includes(BOULDER_PLUGIN) ? plugins : [...plugins, BOULDER_PLUGIN];
	return { ...(config as C), plugin };
}

/** What `untilSettled()` is told: where the project is, and when to stop waiting. */
export interface UntilSettledOptions {
	/** The project the OpenCode server works in (its state and decision log). Default: `process.cwd()`. */
	cwd?: string;
	/** Where the user's config and state folders are found. Default: `process.env`. */
	env?: NodeJS.ProcessEnv;
	/** Stops waiting (resolves with `aborted`). */
	signal?: AbortSignal;
	/** Gives up after this long (resolves with `timeout`). Default: 30 minutes. */
	timeoutMs?: number;
	/** How often the decision log is read. Default 250 ms. */
	pollMs?: number;
	/** Opens the engine for a folder; tests pass their own. */
	engines?: EngineSource;
}

/** Why `untilSettled` returned: boulder's last decision for the session, or why waiting ended first. */
export type Settled =
	| { kind: "decided"; decision: { kind: string; reason: string; detail: string } }
	| { kind: "aborted" }
	| { kind: "timeout" };

const SETTLE_POLL_MS = 250;
const SETTLE_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * Resolves once boulder has let the session stop: its plugin decides in the
 * server whenever the session goes idle, and a nudge starts another turn, so
 * the session is settled when boulder's latest decision for it is a
 * completion or a skip other than a backoff (after which boulder decides
 * again); a nudge or a verify run is followed by more. Call it after
 * your first prompt has returned. Reads the decision log only; changes
 * nothing.
 */
export async function untilSettled(sessionID: string, options: UntilSettledOptions = {}): Promise<Settled> {
	const cwd = options.cwd ?? process.cwd();
	const engines = options.engines ?? fileEngines(options.env ?? process.env);
	const deadline = Date.now() + (options.timeoutMs ?? SETTLE_TIMEOUT_MS);
	for (;;) {
		if (options.signal?.aborted) return { kind: "aborted" };
		const engine = await engines.bookkeeping(cwd);
		const last = (await engine.explain({ lines: 50, session: sessionID }))
			.filter((record) => record.kind !== "event")
			.at(-1);
		// A verify decision is followed by the check's outcome (a nudge with its failure, or complete); a backoff by another decision.
		if (last && (last.kind === "complete" || (last.kind === "skip" && last.reason !== "backoff"))) {
			return { kind: "decided", decision: { kind: last.kind, reason: last.reason, detail: last.detail } };
		}
		if (Date.now() >= deadline) return { kind: "timeout" };
		await sleep(options.pollMs ?? SETTLE_POLL_MS, undefined, options.signal ? { signal: options.signal } : {}).catch(
			() => {},
		);
	}
}
