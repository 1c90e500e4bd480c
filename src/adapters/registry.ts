/**
 * Every harness boulder knows, in one list. Adding a harness is one folder
 * that exports a `HarnessAdapter` and one line here.
 */
import { claudeCodeAdapter } from "./claude-code/adapter.js";
import { codexAdapter } from "./codex/dialect.js";
import { copilotAdapter } from "./copilot/dialect.js";
import { droidAdapter } from "./droid/dialect.js";
import { geminiAdapter } from "./gemini/dialect.js";
import { kiloAdapter, openCodeAdapter } from "./opencode/adapter.js";
import { piAdapter } from "./pi/adapter.js";
import { qwenAdapter } from "./qwen/dialect.js";
import type { HarnessAdapter } from "./types.js";

export const ADAPTERS: readonly HarnessAdapter[] = [
	claudeCodeAdapter,
	openCodeAdapter,
	codexAdapter,
	piAdapter,
	qwenAdapter,
	geminiAdapter,
	copilotAdapter,
	droidAdapter,
	kiloAdapter,
];

/** Contract: the faces find adapters here and nowhere else. */
export interface AdapterRegistry {
	readonly all: readonly HarnessAdapter[];
	get(name: string): HarnessAdapter | undefined;
	names(): string[];
}

export function createRegistry(adapters: readonly HarnessAdapter[] = ADAPTERS): AdapterRegistry {
	const byName = new Map(adapters.map((adapter) => [adapter.name, adapter]));
	if (byName.size !== adapters.length) throw new Error("two adapters share a name");
	return {
		all: adapters,
		get: (name) => byName.get(name),
		names: () => adapters.map((adapter) => adapter.name),
	};
}

export type { HarnessAdapter, InstalledScope } from "./types.js";
