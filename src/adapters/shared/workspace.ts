/**
 * The engine as an in-process plugin needs it (OpenCode's plugin, pi's
 * extension). The plugin lives as long as the harness's process, so it opens
 * the worktree's state once, and reads the config
 * again at every decision: a change to `boulder.config.json` counts from the
 * next idle, and a broken config only stops nudges until it is fixed.
 *
 * Bookkeeping (turns, todos, aborts) does not depend on the config, so it
 * goes on even while the config is broken.
 */
import { defaultConfig } from "../../core/config.js";
import { loadConfig } from "../../engine/config-loader.js";
import { Engine } from "../../engine/engine.js";
import { openState, type StateHandle } from "../../engine/open.js";
import { filePlans } from "../../engine/plan-files.js";

export interface WorkspaceSource {
	/** The engine for reporting events. Contract: throws only when the state folder cannot be opened. */
	bookkeeping(): Promise<Engine>;
	/** An engine with the config as it is now. Contract: throws `BoulderError` for a bad config. */
	deciding(): Promise<Engine>;
}

/** `onWarning` hears what went wrong while opening without stopping it (the worktree index could not be updated). */
export function fileWorkspace(
	directory: string,
	onWarning: (warning: string) => void,
	env: NodeJS.ProcessEnv = process.env,
): WorkspaceSource {
	let state: Promise<StateHandle> | null = null;
	let keeper: Engine | null = null;
	const open = () => {
		state ??= openState({ cwd: directory, env }).then(
			(handle) => {
				for (const warning of handle.warnings.splice(0)) onWarning(warning);
				return handle;
			},
			(error: unknown) => {
				state = null;
				throw error;
			},
		);
		return state;
	};
	return {
		async bookkeeping() {
			const handle = await open();
			keeper ??= new Engine({ store: handle.store, config: defaultConfig(), plans: filePlans });
			return keeper;
		},
		async deciding() {
			const handle = await open();
			const { config } = loadConfig(handle.worktree, env);
			return new Engine({ store: handle.store, config, plans: filePlans });
		},
	};
}
