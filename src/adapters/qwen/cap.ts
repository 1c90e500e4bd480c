/**
 * How many Stop-hook blocks in a row Qwen Code honours for one prompt, found
 * as Qwen Code finds it: `QWEN_CODE_STOP_HOOK_BLOCK_CAP` (the hook inherits
 * the harness's environment), else `stopHookBlockingCap` from its settings
 * (system over workspace over user), else 8; a whole number from 1 to 100
 * (larger is taken as 100, anything else as 8). The block that reaches the
 * cap is overridden: the prompt's run ends.
 *
 * Settings files may hold comments (Qwen Code reads them leniently): one
 * that `JSON.parse` refuses is searched for the key's number instead.
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isRecord } from "../shared/hook-input.js";

export const DEFAULT_CAP = 8;
export const MAX_CAP = 100;
export const CAP_ENV = "QWEN_CODE_STOP_HOOK_BLOCK_CAP";
export const CAP_SETTING = "stopHookBlockingCap";

/** Qwen Code's user folder: `$QWEN_HOME`, else `~/.qwen`. */
export function qwenHome(env: NodeJS.ProcessEnv): string {
	return env.QWEN_HOME ? path.resolve(env.QWEN_HOME) : path.join(env.HOME || os.homedir(), ".qwen");
}

export function systemSettingsFile(env: NodeJS.ProcessEnv): string {
	return env.QWEN_CODE_SYSTEM_SETTINGS_PATH || "/etc/qwen-code/settings.json";
}

/** The settings files that may set the cap, the strongest first. */
export function capSettingsFiles(env: NodeJS.ProcessEnv, project: string): string[] {
	return [
		systemSettingsFile(env),
		path.join(project, ".qwen", "settings.json"),
		path.join(qwenHome(env), "settings.json"),
	];
}

/** Pure: the cap from the environment's value and the settings' values (strongest first). */
export function resolveCap(envValue: string | undefined, settingValues: readonly unknown[]): number {
	if (envValue !== undefined && envValue.trim() !== "") {
		const parsed = Number(envValue);
		return Number.isInteger(parsed) ? normalize(parsed) : DEFAULT_CAP;
	}
	const set = settingValues.find((value) => value !== undefined);
	return normalize(set);
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
		// Comments or trailing commas: look for the key itself.
		const match = new RegExp(`"${CAP_SETTING}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?)`).exec(text);
		return match?.[1] === undefined ? undefined : Number(match[1]);
	}
}

/** Contract: never rejects; an unreadable settings file counts as not setting the cap. */
export async function effectiveCap(env: NodeJS.ProcessEnv, project: string): Promise<number> {
	const envValue = env[CAP_ENV];
	if (envValue !== undefined && envValue.trim() !== "") return resolveCap(envValue, []);
	const values = await Promise.all(
		capSettingsFiles(env, project).map((file) => readFile(file, "utf8").then(capSettingIn, () => undefined)),
	);
	return resolveCap(undefined, values);
}
