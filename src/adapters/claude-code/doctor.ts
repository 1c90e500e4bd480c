/**
 * `boulder doctor`'s Claude Code check: where boulder runs from in Claude Code
 * (hooks in the user, project or local settings; the boulder plugin), and
 * whether what each runs is there and is this version of boulder:
 *
 * - pinned hooks: the node and the hook program they name;
 * - portable hooks and the marketplace plugin: the boulder they find here,
 *   looked up as the shell does it (`hook-config.ts`): the project's
 *   devDependency, the user's link, the PATH;
 * - the plugin: its folder in Claude Code's plugin cache and its version.
 *
 * Every finding that needs action names the one command that fixes it.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { findInstalledBoulder, type Installed } from "../shared/installed-boulder.js";
import { rootOfBundle } from "../shared/programs.js";
import { plainValue } from "../shared/settings-json.js";
import {
	compareVersions,
	harnessVersionFindings,
	installedVersion,
	TESTED,
	type TestedHarness,
} from "../shared/tested-versions.js";
import { HOOK_BIN, HOOK_BUNDLE, HOOK_LINK, type OurCommand, REGISTRATIONS } from "./hook-config.js";
import { isRecord, messageOf } from "./hook-input.js";
import {
	claudeConfigDir,
	INSTALL_SCOPES,
	type InstallScope,
	ourEntries,
	parseSettings,
	settingsFile,
} from "./install.js";
import { DOCTOR_TEXT, TODO_TOOLS_TEXT } from "./messages.js";
import { settingsTurnOn, TODO_TOOLS_OFF_SINCE, TODO_TOOLS_VARIABLE, turnsOn } from "./todo-tools.js";

export type ClaudeCodeFinding = DoctorFinding;

export type ClaudeCodeCheckContext = Pick<DoctorContext, "cwd" | "env">;

const CHECK = "claude-code";

export const claudeCodeDoctorCheck = {
	name: CHECK,
	run: async (context: ClaudeCodeCheckContext) => [
		...(await checkClaudeCodeHooks(context)),
		...harnessVersionFindings(CHECK, context.env),
	],
};

export async function checkClaudeCodeHooks(
	context: ClaudeCodeCheckContext,
	version: string = packageVersion(),
): Promise<ClaudeCodeFinding[]> {
	const findings: ClaudeCodeFinding[] = [];
	const places: string[] = [];
	const settings = new Map<InstallScope, unknown>();
	for (const scope of INSTALL_SCOPES) {
		const file = settingsFile(scope, context);
		let value: unknown;
		try {
			value = plainValue(parseSettings(await readFile(file, "utf8"), file));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			findings.push(problem(DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file));
			continue;
		}
		settings.set(scope, value);
		const entries = ourEntries(value);
		if (entries.length === 0) continue;
		places.push(`${scope} settings`);
		findings.push(...judgeHooks(scope, file, entries, version, context));
	}
	for (const plugin of enabledPlugins(settings, context.env)) {
		places.push(`plugin ${plugin.id}`);
		findings.push(...judgePlugin(plugin, version, context));
	}
	if (places.length === 0) {
		findings.push({ check: CHECK, level: "ok", message: DOCTOR_TEXT.notInstalled, fix: DOCTOR_TEXT.installFix });
	}
	if (places.length > 0) findings.push(...judgeTodoTools(settings, context));
	if (places.length > 1) {
		const last = places[places.length - 1] ?? "";
		const fix = last.startsWith("plugin ")
			? `keep one: \`claude plugin uninstall ${last.slice("plugin ".length)}\``
			: `keep one: \`boulder uninstall claude-code --${last.split(" ")[0]}\``;
		findings.push({ check: CHECK, level: "warn", message: DOCTOR_TEXT.twice(places), fix });
	}
	return findings;
}

/**
 * Whether the agent is offered a todo list boulder can follow: on Claude Code
 * 2.1.233 and later only with `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` (a settings
 * file's `env`, or the environment). Not said for an older Claude Code.
 */
function judgeTodoTools(settings: Map<InstallScope, unknown>, context: ClaudeCodeCheckContext): ClaudeCodeFinding[] {
	if (turnsOn(context.env[TODO_TOOLS_VARIABLE]) || [...settings.values()].some(settingsTurnOn)) return [];
	const installed = installedVersion(TESTED[CHECK] as TestedHarness, context.env);
	if (installed !== null && compareVersions(installed, TODO_TOOLS_OFF_SINCE) < 0) return [];
	const scope = INSTALL_SCOPES.find((each) => settings.has(each)) ?? "local";
	return [warn(TODO_TOOLS_TEXT.doctorOff(installed), TODO_TOOLS_TEXT.doctorFix(scope))];
}

function judgeHooks(
	scope: InstallScope,
	file: string,
	entries: Array<OurCommand & { word: string }>,
	version: string,
	context: ClaudeCodeCheckContext,
): ClaudeCodeFinding[] {
	const reinstall = `\`boulder install claude-code --${scope}\``;
	const found: ClaudeCodeFinding[] = [];
	const missing = missingRegistrations(REGISTRATIONS, entries);
	if (missing.length > 0) {
		found.push({
			...warn(DOCTOR_TEXT.missingEvents(file, missing), reinstall, file),
			level: MISSING_EVENT_SEVERITY,
		});
	}
	const pinned = entries.filter((entry) => entry.form === "pinned");
	for (const program of new Set(pinned.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) found.push(problem(DOCTOR_TEXT.programGone(file, program), reinstall, file));
	}
	for (const entry of pinned) {
		if (!existsSync(entry.bundle) || found.some((finding) => finding.message.includes(entry.bundle))) continue;
		// The package around the program says what runs now (a clone may have moved on); the marker, what was installed.
		const installed = packageAt(rootOfBundle(entry.bundle))?.version ?? entry.version;
		if (installed !== version) {
			found.push(warn(DOCTOR_TEXT.otherVersion(file, installed, entry.bundle, version), reinstall, file));
		}
	}
	if (entries.some((entry) => entry.form === "portable")) {
		found.push(...judgeFound(file, findInstalled(context), version, reinstall));
	}
	if (found.length === 0) {
		const message = pinned.length
			? DOCTOR_TEXT.pinnedOk(file, scope, version, entries.length)
			: DOCTOR_TEXT.portableOk(file, version, findInstalled(context).where);
		found.push({ check: CHECK, level: "ok", message, fix: null, file });
	}
	return found;
}

/** What portable hooks (or the marketplace plugin's) run here, judged. Nothing is reported when it is this version. */
function judgeFound(file: string, installed: Installed, version: string, relink: string): ClaudeCodeFinding[] {
	const found: ClaudeCodeFinding[] = [];
	if (installed.danglingLink) {
		const { link, target } = installed.danglingLink;
		found.push(problem(DOCTOR_TEXT.linkGone(link, target), "`boulder install claude-code --project`", link));
	}
	if (installed.kind === "none") {
		if (!installed.danglingLink) {
			found.push(problem(DOCTOR_TEXT.noneFound(file), "`boulder install claude-code --project`", file));
		}
		return found;
	}
	if (installed.version !== null && installed.version !== version) {
		const fix =
			installed.kind === "project"
				? `\`npm install --save-dev boulder-agent@${version}\``
				: installed.kind === "path"
					? `\`npm install --global boulder-agent@${version}\``
					: relink;
		found.push(warn(DOCTOR_TEXT.otherVersion(file, installed.version, installed.where, version), fix, file));
	}
	return found;
}

/** The boulder the portable hooks run here, found the way the shell finds it. */
export function findInstalled(context: ClaudeCodeCheckContext): Installed {
	return findInstalledBoulder(context, { bundle: HOOK_BUNDLE, link: HOOK_LINK, bin: HOOK_BIN });
}

interface EnabledPlugin {
	/** `boulder@<marketplace>`. */
	id: string;
	/** Where Claude Code keeps its copy, from its installed_plugins.json; null when it has none. */
	folder: string | null;
}

/** boulder's plugins that a settings file enables, with the folder Claude Code installed each into. */
function enabledPlugins(settings: Map<InstallScope, unknown>, env: NodeJS.ProcessEnv): EnabledPlugin[] {
	const ids = new Set<string>();
	for (const value of settings.values()) {
		const enabled = isRecord(value) && isRecord(value.enabledPlugins) ? value.enabledPlugins : {};
		for (const [id, on] of Object.entries(enabled)) if (id.startsWith("boulder@") && on === true) ids.add(id);
	}
	if (ids.size === 0) return [];
	const installed = readInstalledPlugins(env);
	return [...ids].map((id) => ({ id, folder: installed[id] ?? null }));
}

/** Claude Code's record of installed plugins (`plugins/installed_plugins.json`, version 2): id → install folder. */
function readInstalledPlugins(env: NodeJS.ProcessEnv): Record<string, string> {
	const file = path.join(claudeConfigDir(env), "plugins", "installed_plugins.json");
	let value: unknown;
	try {
		value = JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof SyntaxError) return {};
		throw error;
	}
	const found: Record<string, string> = {};
	const plugins = isRecord(value) && isRecord(value.plugins) ? value.plugins : {};
	for (const [id, installs] of Object.entries(plugins)) {
		const first = Array.isArray(installs) ? installs.find((install) => isRecord(install)) : undefined;
		if (isRecord(first) && typeof first.installPath === "string") found[id] = first.installPath;
	}
	return found;
}

function judgePlugin(plugin: EnabledPlugin, version: string, context: ClaudeCodeCheckContext): ClaudeCodeFinding[] {
	if (plugin.folder === null || !existsSync(plugin.folder)) {
		const folder = plugin.folder ?? "(none recorded)";
		return [problem(DOCTOR_TEXT.pluginGone(plugin.id, folder), `\`claude plugin install ${plugin.id}\``)];
	}
	const found: ClaudeCodeFinding[] = [];
	const manifest = readJson(path.join(plugin.folder, ".claude-plugin", "plugin.json"));
	const installed = isRecord(manifest) && typeof manifest.version === "string" ? manifest.version : null;
	if (installed !== null && installed !== version) {
		found.push(warn(DOCTOR_TEXT.pluginVersion(plugin.id, installed, version), `\`claude plugin update ${plugin.id}\``));
	}
	const hooks = readFileOrNull(path.join(plugin.folder, "hooks", "hooks.json"));
	const portable = hooks?.includes("--boulder-hook=portable") ?? false;
	const here = portable ? findInstalled(context) : null;
	if (here !== null) {
		for (const finding of judgeFound(
			`the plugin ${plugin.id}`,
			here,
			version,
			"`boulder install claude-code --project`",
		)) {
			found.push(
				finding.level === "problem" && here.kind === "none"
					? { ...finding, fix: "`npm install --global boulder-agent`" }
					: finding,
			);
		}
	}
	if (found.length === 0) {
		const where = here ? `runs boulder ${here.version ?? "?"}, ${here.where}` : plugin.folder;
		found.push({ check: CHECK, level: "ok", message: DOCTOR_TEXT.pluginOk(plugin.id, where), fix: null });
	}
	return found;
}

function readJson(file: string): unknown {
	const text = readFileOrNull(file);
	if (text === null) return null;
	try {
		return JSON.parse(text);
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
}

function readFileOrNull(file: string): string | null {
	try {
		return readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

function problem(message: string, fix: string, file?: string): ClaudeCodeFinding {
	return { check: CHECK, level: "problem", message, fix, ...(file ? { file } : {}) };
}

function warn(message: string, fix: string, file?: string): ClaudeCodeFinding {
	return { check: CHECK, level: "warn", message, fix, ...(file ? { file } : {}) };
}
