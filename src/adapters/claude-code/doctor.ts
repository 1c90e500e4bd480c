/**
 * Claude Code's part of `boulder doctor`: the boulder plugin (its folder in Claude Code's plugin cache, its
 * version, the boulder its portable hooks find here), and whether the agent is offered a todo list at all.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { doctorCheck, type HooksDoctor, judgeFound, portableHere, sayer } from "../command-hook/doctor.js";
import { isRecord } from "../shared/hook-input.js";
import { readFileOrNull } from "../shared/installed-boulder.js";
import { compareVersions, installedVersion, TESTED, type TestedHarness } from "../shared/tested-versions.js";
import { HARNESS } from "./events.js";
import {
	claudeConfigDir,
	DOCTOR_TEXT,
	INSTALL_SCOPES,
	install,
	settingsTurnOn,
	TODO_TOOLS_OFF_SINCE,
	TODO_TOOLS_TEXT,
	TODO_TOOLS_VARIABLE,
	turnsOn,
} from "./install.js";

export type ClaudeCodeFinding = DoctorFinding;
type ClaudeCodeCheckContext = Pick<DoctorContext, "cwd" | "env">;

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	elsewhere: async (settings, context, version) =>
		enabledPlugins(settings, context.env).map((plugin) => ({
			place: `plugin ${plugin.id}`,
			removeFix: `keep one: \`claude plugin uninstall ${plugin.id}\``,
			findings: judgePlugin(plugin, version, context),
		})),
	installed: async (settings, context) => judgeTodoTools(settings, context),
};

export const claudeCodeDoctorCheck = doctorCheck(install, doctor);
const say = sayer(HARNESS);
export const checkClaudeCodeHooks = claudeCodeDoctorCheck.hooks;

/** Said only for a Claude Code that needs the variable and has it in no settings file's `env` nor the environment. */
function judgeTodoTools(settings: Map<string, unknown>, context: ClaudeCodeCheckContext): ClaudeCodeFinding[] {
	if (turnsOn(context.env[TODO_TOOLS_VARIABLE]) || [...settings.values()].some(settingsTurnOn)) return [];
	const installed = installedVersion(TESTED[HARNESS] as TestedHarness, context.env);
	if (installed !== null && compareVersions(installed, TODO_TOOLS_OFF_SINCE) < 0) return [];
	const scope = INSTALL_SCOPES.find((each) => settings.has(each)) ?? "local";
	return [say("warn", TODO_TOOLS_TEXT.doctorOff(installed), TODO_TOOLS_TEXT.doctorFix(scope))];
}

/** `id` is `boulder@<marketplace>`; `folder` where Claude Code keeps its copy, null when it has none. */
interface EnabledPlugin {
	id: string;
	folder: string | null;
}

function enabledPlugins(settings: Map<string, unknown>, env: NodeJS.ProcessEnv): EnabledPlugin[] {
	const ids = new Set<string>();
	for (const value of settings.values()) {
		const enabled = isRecord(value) && isRecord(value.enabledPlugins) ? value.enabledPlugins : {};
		for (const [id, on] of Object.entries(enabled)) if (id.startsWith("boulder@") && on === true) ids.add(id);
	}
	if (ids.size === 0) return [];
	const installed = readInstalledPlugins(env);
	return [...ids].map((id) => ({ id, folder: installed[id] ?? null }));
}

/** Claude Code's `plugins/installed_plugins.json` (version 2; notes): id → install folder. */
function readInstalledPlugins(env: NodeJS.ProcessEnv): Record<string, string> {
	const value = readJson(path.join(claudeConfigDir(env), "plugins", "installed_plugins.json"));
	const found: Record<string, string> = {};
	const plugins = isRecord(value) && isRecord(value.plugins) ? value.plugins : {};
	for (const [id, installs] of Object.entries(plugins)) {
		const first = Array.isArray(installs) ? installs.find((one) => isRecord(one)) : undefined;
		if (isRecord(first) && typeof first.installPath === "string") found[id] = first.installPath;
	}
	return found;
}

function judgePlugin(plugin: EnabledPlugin, version: string, context: ClaudeCodeCheckContext): ClaudeCodeFinding[] {
	if (plugin.folder === null || !existsSync(plugin.folder)) {
		const folder = plugin.folder ?? "(none recorded)";
		return [say("problem", DOCTOR_TEXT.pluginGone(plugin.id, folder), `\`claude plugin install ${plugin.id}\``)];
	}
	const found: ClaudeCodeFinding[] = [];
	const manifest = readJson(path.join(plugin.folder, ".claude-plugin", "plugin.json"));
	const installed = isRecord(manifest) && typeof manifest.version === "string" ? manifest.version : null;
	if (installed !== null && installed !== version) {
		found.push(
			say("warn", DOCTOR_TEXT.pluginVersion(plugin.id, installed, version), `\`claude plugin update ${plugin.id}\``),
		);
	}
	const hooks = readFileOrNull(path.join(plugin.folder, "hooks", "hooks.json"));
	const here = hooks?.includes("--boulder-hook=portable") ? portableHere(install, context) : null;
	for (const finding of here ? judgeFound(install, doctor.text, `the plugin ${plugin.id}`, here, version) : []) {
		const none = finding.level === "problem" && here?.kind === "none";
		found.push(none ? { ...finding, fix: "`npm install --global boulder-agent`" } : finding);
	}
	if (found.length === 0) {
		const where = here ? `runs boulder ${here.version ?? "?"}, ${here.where}` : plugin.folder;
		found.push(say("ok", DOCTOR_TEXT.pluginOk(plugin.id, where), null));
	}
	return found;
}

/** A JSON file's value; null when it is absent or not JSON. */
function readJson(file: string): unknown {
	const text = readFileOrNull(file);
	try {
		return text === null ? null : JSON.parse(text);
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
}
