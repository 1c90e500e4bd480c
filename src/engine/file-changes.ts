/**
 * What a hook that answers only file changes needs of the engine: the
 * file-change step (`hygiene-ops.ts`) and the error record, opened without
 * the `Engine` class, so a bundle built for that one event carries none of
 * the Stop path (policy, verify, status, resume). A harness asks this before
 * every file edit, one process each (Claude Code's PreToolUse).
 *
 * Contract: as `Engine`'s methods of the same names; `openFileChanges` throws
 * what `openWorkspace` throws (a bad config).
 */
import type { FileChange } from "../core/orchestrate.js";
import { systemClock } from "../state/store.js";
import type { SessionRef } from "./engine-types.js";
import { type FileChangeAnswer, fileChangeAsked } from "./hygiene-ops.js";
import { type OpenOptions, openConfigured } from "./open.js";
import { filePlans } from "./plan-files.js";
import { recordError } from "./record-error.js";

export interface FileChanges {
	fileChangeAsked(ref: SessionRef, change: FileChange): Promise<FileChangeAnswer>;
	recordError(ref: SessionRef | null, where: string, error: unknown): Promise<void>;
}

export async function openFileChanges(options: OpenOptions): Promise<{ engine: FileChanges; warnings: string[] }> {
	const { store, config, warnings } = await openConfigured(options);
	const clock = options.clock ?? systemClock;
	const deps = { store, config, clock, plans: options.plans ?? filePlans };
	return {
		engine: {
			fileChangeAsked: (ref, change) => fileChangeAsked(deps, ref, change),
			recordError: (ref, where, error) => recordError(store, clock, ref, where, error),
		},
		warnings,
	};
}
