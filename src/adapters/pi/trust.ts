/**
 * Whether pi will load this project's `.pi/settings.json` (where `boulder
 * install pi --project` lists the extension), as pi 1.6.0 decides it: a run
 * with `--approve` does; otherwise the nearest saved decision for the folder
 * or a parent in `<agent folder>/trust.json` (`{"<path>": true|false}`),
 * else the user's `defaultProjectTrust` (`always`, `never`, or `ask`, the
 * default). "ask" asks only in the interactive mode: `pi -p`, `--mode json`
 * and `--mode rpc` then skip the project's settings, extensions included,
 * without a word, so boulder is not loaded at all.
 *
 * Read-only, and never throws: a file that cannot be read counts as no
 * decision, and says so.
 */
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { isRecord, messageOf } from "../shared/loose.js";
import { agentDir } from "./install.js";

export type PiTrust =
	| { kind: "trusted"; how: string }
	| { kind: "distrusted"; how: string }
	| { kind: "unsaved"; problem: string | null };

export function trustFile(env: NodeJS.ProcessEnv): string {
	return path.join(agentDir(env), "trust.json");
}

export async function projectTrust(cwd: string, env: NodeJS.ProcessEnv): Promise<PiTrust> {
	const file = trustFile(env);
	const read = await readJson(file);
	if (read.problem === null && read.value !== null) {
		let folder = await realpath(cwd).catch(() => path.resolve(cwd));
		for (;;) {
			const decision = read.value[folder];
			if (decision === true) return { kind: "trusted", how: `saved for ${folder} in ${file}` };
			if (decision === false) return { kind: "distrusted", how: `saved for ${folder} in ${file}` };
			const parent = path.dirname(folder);
			if (parent === folder) break;
			folder = parent;
		}
	}
	const settings = path.join(agentDir(env), "settings.json");
	const global = await readJson(settings);
	const fallback = global.value?.defaultProjectTrust;
	if (fallback === "always") return { kind: "trusted", how: `defaultProjectTrust is "always" in ${settings}` };
	if (fallback === "never") return { kind: "distrusted", how: `defaultProjectTrust is "never" in ${settings}` };
	return { kind: "unsaved", problem: read.problem };
}

async function readJson(file: string): Promise<{ value: Record<string, unknown> | null; problem: string | null }> {
	let text: string;
	try {
		text = await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { value: null, problem: null };
		return { value: null, problem: `${file} cannot be read (${messageOf(error)})` };
	}
	try {
		const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
		return isRecord(value) ? { value, problem: null } : { value: null, problem: `${file} is not a JSON object` };
	} catch (error) {
		return { value: null, problem: `${file} is not JSON (${messageOf(error)})` };
	}
}
