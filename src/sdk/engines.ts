/**
 * The engine as an SDK host needs it: opened once per project folder for the
 * life of the program, the config read again at every event (a change to
 * `boulder.config.json` counts from the next event, as it does for the
 * command hooks), and a plan started the way `boulder start` starts it.
 *
 * Contract: `open` throws `BoulderError` for a bad config; `bookkeeping`
 * works even then (it is where the failure is recorded).
 */

import { messageOf } from "../adapters/shared/hook-input.js";
import { fileWorkspace, type WorkspaceSource } from "../adapters/shared/workspace.js";
import { isBoulderError } from "../core/errors.js";
import { systemClock } from "../engine/clock.js";
import type { Engine, SessionRef } from "../engine/engine.js";
import { openState } from "../engine/open.js";
import { filePlans } from "../engine/plan-files.js";
import { startWork } from "../engine/works-ops.js";

/** Where an SDK entry gets its engine for a project folder (the file store by default; tests pass their own). */
export interface EngineSource {
	/** The engine for the project at `folder`, with its config as it is now. */
	open(folder: string): Promise<Engine>;
	/** An engine for recording, with the default config. */
	bookkeeping(folder: string): Promise<Engine>;
	/** `boulder start PLAN` in `folder`: the plan becomes the active work; the first session to go idle rolls it. */
	start(folder: string, plan: string): Promise<void>;
}

/** The engines over each folder's own state files, as the CLI installs use them; `env` names the user's folders. */
export function fileEngines(env: NodeJS.ProcessEnv): EngineSource {
	const workspaces = new Map<string, WorkspaceSource>();
	const workspaceOf = (folder: string): WorkspaceSource => {
		let workspace = workspaces.get(folder);
		if (!workspace) {
			const created = fileWorkspace(
				folder,
				(warning) => {
					created
						.bookkeeping()
						.then((engine) => engine.recordError(null, "opening boulder's state", new Error(warning)))
						.catch(() => process.emitWarning(`boulder: ${warning}`));
				},
				env,
			);
			workspace = created;
			workspaces.set(folder, workspace);
		}
		return workspace;
	};
	return {
		open: (folder) => workspaceOf(folder).deciding(),
		bookkeeping: (folder) => workspaceOf(folder).bookkeeping(),
		async start(folder, plan) {
			// Outside any project, starting a work is what makes the folder one, as with `boulder start`.
			const handle = await openState({ cwd: folder, env, startHere: true });
			await startWork({ store: handle.store, clock: systemClock, plans: filePlans }, { planPath: plan, cwd: folder });
			workspaces.delete(folder);
		},
	};
}

/** Records a failure in the decision log when the folder has one; never throws. */
export async function recordQuietly(
	engines: EngineSource,
	folder: string,
	engine: Engine | null,
	ref: SessionRef | null,
	where: string,
	error: unknown,
): Promise<void> {
	try {
		const keeper = engine ?? (await engines.bookkeeping(folder));
		await keeper.recordError(ref, where, error);
	} catch (second) {
		const badConfig = isBoulderError(error) && error.code.startsWith("config-");
		const detail = badConfig ? messageOf(error) : `${messageOf(error)} (and recording it failed: ${messageOf(second)})`;
		process.emitWarning(`boulder: ${where}: ${detail}`);
	}
}
