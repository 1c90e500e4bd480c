/**
 * How many Stop-hook blocks in a row Qwen Code honours for one prompt, found
 * as Qwen Code finds it (`docs/qwen-notes.md`, "The cap"): the environment,
 * else the settings files, strongest first, else 8. Settings files may hold
 * comments: one that `JSON.parse` refuses is searched for the key's number.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import util from "node:util";
import { isRecord } from "../shared/hook-input.js";

export const DEFAULT_CAP = 8;
export const MAX_CAP = 100;
const CAP_ENV = "QWEN_CODE_STOP_HOOK_BLOCK_CAP";
export const CAP_SETTING = "stopHookBlockingCap";

/**
 * Qwen Code's home, found as Qwen Code finds it (`docs/qwen-notes.md`, "`$QWEN_HOME`"): `$QWEN_HOME` (empty is
 * unset; a leading `~` is the user's home; else made absolute against the working folder), else, when the
 * variable is not set at all, the `QWEN_HOME` of `~/.qwen/.env` or `~/.env`, else `~/.qwen`.
 */
export function qwenHome(env: NodeJS.ProcessEnv): string {
	const home = env.HOME || os.homedir();
	const configured = Object.hasOwn(env, "QWEN_HOME") ? env.QWEN_HOME : homeFromEnvFiles(home);
	if (!configured) return path.join(home, ".qwen");
	if (configured === "~") return home;
	if (/^~[/\\]/.test(configured)) return path.join(home, ...configured.slice(2).split(/[/\\]+/));
	return path.resolve(configured);
}

/** The first `QWEN_HOME` of the env files Qwen Code reads at start; undefined where none says it (or node has no `parseEnv`). */
function homeFromEnvFiles(home: string): string | undefined {
	if (typeof util.parseEnv !== "function") return undefined;
	for (const file of [path.join(home, ".qwen", ".env"), path.join(home, ".env")]) {
		let text: string;
		try {
			text = readFileSync(file, "utf8");
		} catch {
			continue;
		}
		// Qwen Code takes `QWEN_HOME: value` too, and a leading byte-order mark.
		const source = text.replace(/^\uFEFF/, "").replace(/^(\s*(?:export\s+)?QWEN_HOME):[^\S\r\n]+/gm, "$1=");
		const value = util.parseEnv(source).QWEN_HOME;
		if (value) return value;
	}
	return undefined;
}

/** Pure: the cap from the environment's value and the settings' values (strongest first). */
export function resolveCap(envValue: string | undefined, settingValues: readonly unknown[]): number {
	if (envValue !== undefined && envValue.trim() !== "") {
		const parsed = Number(envValue);
		return Number.isInteger(parsed) ? normalize(parsed) : DEFAULT_CAP;
	}
	return normalize(settingValues.find((value) => value !== undefined));
}

function normalize(value: unknown): number {
	if (typeof value !== "number" || !Number.isFinite(value)) return DEFAULT_CAP;
	const whole = Math.floor(value);
	return whole >= 1 ? Math.min(whole, MAX_CAP) : DEFAULT_CAP;
}

/** The value a settings text gives the cap, or undefined. */
export function capSettingIn(text: string): unknown {
	try {
		const value: unknown = JSON.parse(text);
		return isRecord(value) ? value[CAP_SETTING] : undefined;
	} catch {
		const match = new RegExp(`"${CAP_SETTING}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?)`).exec(text);
		return match?.[1] === undefined ? undefined : Number(match[1]);
	}
}

/** Contract: never rejects; an unreadable settings file counts as not setting the cap. */
export async function effectiveCap(env: NodeJS.ProcessEnv, project: string): Promise<number> {
	const envValue = env[CAP_ENV];
	if (envValue !== undefined && envValue.trim() !== "") return resolveCap(envValue, []);
	const files = [
		env.QWEN_CODE_SYSTEM_SETTINGS_PATH || "/etc/qwen-code/settings.json",
		path.join(project, ".qwen", "settings.json"),
		path.join(qwenHome(env), "settings.json"),
	];
	const values = await Promise.all(files.map((file) => readFile(file, "utf8").then(capSettingIn, () => undefined)));
	return resolveCap(undefined, values);
}
