/**
 * Opens boulder for a folder: the worktree it belongs to, its store, the
 * effective config and an engine. Adapters and the CLI both start here, so it
 * knows nothing about either: no printing, no exit codes.
 *
 * State is kept in the project's `.boulder/` (`worktree.ts`): a git worktree,
 * a folder where a work was started or where boulder was installed at a
 * project scope. A folder that is no project keeps its state under the
 * user's state folder instead, so a session there still gets continuation
 * for its own todo list; `boulder start` (`startHere`) makes the folder it
 * runs in a project.
 *
 * The user-level worktree index (for `boulder status --all` and the
 * dashboard) is refreshed only for worktrees that have boulder state, so
 * running a read command in a random folder does not list that folder
 * forever, and at most every few minutes, so a hook that opens the workspace
 * on every event neither takes the index's lock nor reads the index on every
 * event (state/ answers "recorded recently?" with one stat of a stamp).
 */
import { existsSync } from "node:fs";
import type { Config } from "../core/config.js";
import type { FileStore } from "../state/file-store.js";
import type { Clock } from "../state/store.js";
import { systemClock } from "../state/store.js";
import { boulderStateHome, refreshWorktree } from "../state/worktree-index.js";
import { type ConfigLayer, loadConfig } from "./config-loader.js";
import { Engine, type PlanSource } from "./engine.js";
import { fleetKicker } from "./fleet-kick.js";
import { filePlans } from "./plan-files.js";
import type { Runner } from "./runner.js";
import { findProject, type ProjectKind, projectStore } from "./worktree.js";

/** A worktree seen this recently is not written to the index again. */
export const INDEX_REFRESH_MS = 10 * 60 * 1000;

export interface OpenOptions {
	cwd: string;
	/** Where the user's config and state folders are found; defaults to `process.env`. */
	env?: NodeJS.ProcessEnv;
	clock?: Clock;
	runner?: Runner;
	plans?: PlanSource;
	/** `boulder start`: outside any project, the folder itself becomes one once the work is written. */
	startHere?: boolean;
}

export interface StateHandle {
	worktree: string;
	/**
	 * How the folder belongs to a project; `none`: it does not, and its state
	 * lives under the user's state folder (`store.dir`), unless opened with
	 * `startHere`, which puts it in the folder.
	 */
	project: ProjectKind;
	store: FileStore;
	/**
	 * Contract: things that went wrong but must not fail the open (the index
	 * could not be updated). The caller shows or logs them; nothing here is
	 * dropped silently.
	 */
	warnings: string[];
}

export interface Workspace extends StateHandle {
	config: Config;
	/** The config files that were found, lowest precedence first. */
	layers: ConfigLayer[];
	engine: Engine;
}

/**
 * The worktree and its store, without the config: what `boulder stop` needs,
 * which must work even when the config is broken.
 */
export async function openState(options: OpenOptions): Promise<StateHandle> {
	const found = findProject(options.cwd);
	// `boulder start` outside any project makes the folder one: its state goes into the folder itself.
	const project = found.kind === "none" && options.startHere === true ? { ...found, kind: "started" as const } : found;
	const env = options.env ?? process.env;
	const store = projectStore(project, env, {
		stateHome: boulderStateHome({ env }),
		...(options.clock ? { clock: options.clock } : {}),
		onDecision: fleetKicker(env),
	});
	const handle: StateHandle = { worktree: project.root, project: found.kind, store, warnings: [] };
	if (existsSync(store.dir)) await noteWorktree(handle, options);
	return handle;
}

/**
 * Contract: throws `BoulderError` ("config-invalid", "config-unreadable") when
 * a config file is bad, naming the file, key and expectation; adapters then
 * let the agent stop.
 */
export async function openWorkspace(options: OpenOptions): Promise<Workspace> {
	const { config, layers, ...state } = await openConfigured(options);
	const engine = new Engine({
		store: state.store,
		config,
		plans: options.plans ?? filePlans,
		...(options.clock ? { clock: options.clock } : {}),
		...(options.runner ? { runner: options.runner } : {}),
	});
	return { ...state, config, layers, engine };
}

/** The state and the effective config, without an engine. Contract: throws as `openWorkspace`. */
export async function openConfigured(
	options: OpenOptions,
): Promise<StateHandle & { config: Config; layers: ConfigLayer[] }> {
	const state = await openState(options);
	return { ...state, ...loadConfig(state.worktree, options.env ?? process.env) };
}

/**
 * Records the worktree in the user-level index unless it was recorded
 * recently, or it keeps no state. Failures become a warning on the handle:
 * the index is a convenience list and must never keep boulder from working.
 */
export async function noteWorktree(handle: StateHandle, options: Pick<OpenOptions, "env" | "clock">): Promise<void> {
	if (!handle.store.keepsState || !existsSync(handle.store.dir)) return;
	const indexOptions = { env: options.env ?? process.env, clock: options.clock ?? systemClock };
	try {
		await refreshWorktree(handle.worktree, INDEX_REFRESH_MS, indexOptions);
	} catch (error) {
		handle.warnings.push(
			`could not record ${handle.worktree} in the worktree index: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
}
