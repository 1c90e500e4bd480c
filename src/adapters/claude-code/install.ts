/**
 * Claude Code's part of the family's installer: where its settings live (relative to where you start Claude
 * Code), its todo tools, and its words.
 */
import os from "node:os";
import path from "node:path";
import { applyEdits, type Edit } from "jsonc-parser";
import { BoulderError } from "../../core/errors.js";
import { installOf } from "../command-hook/dialect.js";
import type { HooksOk } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { packageRoot } from "../shared/config-file.js";
import { isRecord } from "../shared/hook-input.js";
import { hookLinkFile as linkFileOf, hookLinkText as linkTextOf } from "../shared/hook-link.js";
import { parseSettings as parseSettingsOf } from "../shared/hooks-file.js";
import { commandHookDoctorText, hooksInstallText } from "../shared/install-messages.js";
import { addMemberEdit, memberOf, plainValue, removal } from "../shared/settings-json.js";
import { dialect, HOOK_BUNDLE, HOOK_LINK, LINK, SPELLING } from "./dialect.js";
import { HARNESS } from "./events.js";

export const INSTALL_TEXT = hooksInstallText("Claude Code");

export const DOCTOR_TEXT = {
	...commandHookDoctorText("Claude Code", HARNESS, { link: true, notice: true }),
	notInstalled:
		"boulder's Claude Code hooks are not in this project's or your user settings, and its plugin is not enabled",
	installFix: "`boulder install claude-code` adds them, if you use Claude Code here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Claude Code will not run its hooks either`,
	ok: (file: string, { scope, version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `${scope}, pinned to boulder ${version}, ${count} entries` : `portable: here they run boulder ${version}, ${where}`})`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to a boulder on the PATH`,
	pluginGone: (id: string, folder: string) =>
		`Claude Code's plugin ${id} is enabled, but its folder ${folder} is gone: its hooks and /boulder commands fail`,
	pluginVersion: (id: string, installed: string, version: string) =>
		`Claude Code's plugin ${id} is version ${installed}; this boulder is ${version}`,
	pluginOk: (id: string, where: string) => `Claude Code's plugin ${id} is enabled (${where})`,
};

export const TODO_TOOLS_TEXT = {
	set: (file: string) =>
		`Set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the env of ${file}: Claude Code offers the agent its todo tools (TaskCreate, TaskUpdate, ...), which boulder follows. \`boulder uninstall\` leaves it; remove it from "env" by hand to undo.`,
	alreadySet: (file: string) => `CLAUDE_CODE_ENABLE_TODO_TOOLS=1 is already set in the env of ${file}.`,
	offer: (scope: string) =>
		`Claude Code 2.1.233 and later offer their newest models no todo tools, so the agent keeps no list boulder can follow. To turn them on, run \`boulder install claude-code --${scope} --todo-tools\` (it sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1 in the settings' env), or give boulder a plan: \`boulder start PLAN.md\`.`,
	doctorOff: (version: string | null) =>
		`no settings file and no environment sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1${version ? ` (Claude Code ${version} is installed)` : ""}: Claude Code 2.1.233 and later offer their newest models no todo tools, so boulder can follow only a plan (\`boulder start PLAN.md\`)`,
	doctorFix: (scope: string) => `\`boulder install claude-code --${scope} --todo-tools\``,
};

/** Without it Claude Code offers its newest models no todo tools (since 2.1.233; notes); set only with the flag. */
export const TODO_TOOLS_VARIABLE = "CLAUDE_CODE_ENABLE_TODO_TOOLS";
export const TODO_TOOLS_OFF_SINCE = "2.1.233";

/** As Claude Code reads its boolean variables. */
export function turnsOn(value: unknown): boolean {
	return typeof value === "string" && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

export function settingsTurnOn(settings: unknown): boolean {
	return isRecord(settings) && isRecord(settings.env) && turnsOn(settings.env[TODO_TOOLS_VARIABLE]);
}

/**
 * Pure: the settings text with `env.CLAUDE_CODE_ENABLE_TODO_TOOLS` set to "1"; the same bytes when it is on.
 * Contract: the user's other settings keep every byte; a file that is not a settings object is refused.
 */
export function withTodoTools(text: string, file: string): { text: string; changed: boolean } {
	if (text.trim() === "")
		return { text: `${JSON.stringify({ env: { [TODO_TOOLS_VARIABLE]: "1" } }, null, 2)}\n`, changed: true };
	const root = parseSettingsOf({ text: INSTALL_TEXT }, text, file);
	if (settingsTurnOn(plainValue(root))) return { text, changed: false };
	const env = memberOf(root, "env");
	if (!env) return edited(text, addMemberEdit(text, root, "env", { [TODO_TOOLS_VARIABLE]: "1" }));
	if (env.type !== "object") {
		throw new BoulderError("settings-invalid", `"env" in ${file} is not an object; boulder did not touch the file.`);
	}
	const current = memberOf(env, TODO_TOOLS_VARIABLE);
	if (!current) return edited(text, addMemberEdit(text, env, TODO_TOOLS_VARIABLE, "1"));
	return edited(text, { ...removal(current.offset, current.offset + current.length), content: '"1"' });
}

const edited = (text: string, edit: Edit) => ({ text: applyEdits(text, [edit]), changed: true });

const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".claude", "settings.json"),
	local: ({ cwd }: family.Place) => path.join(cwd, ".claude", "settings.local.json"),
	user: ({ env, cwd }: family.Place) => path.join(claudeConfigDir(env, cwd), "settings.json"),
};
export type InstallScope = keyof typeof WHERE;
export const INSTALL_SCOPES = Object.keys(WHERE) as InstallScope[];
export const settingsFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

/**
 * Claude Code's config folder, found as Claude Code finds it (`docs/claude-code-notes.md`, "Settings files"):
 * `$CLAUDE_CONFIG_DIR` taken as it is, made absolute against the working folder `cwd` (a leading `~` is no home;
 * an empty value, unlike other harnesses' variables, is the working folder itself), else `~/.claude` where it is
 * not set at all. Not `harnessHome`, which reads an empty value as unset.
 */
export function claudeConfigDir(env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
	const configured = env.CLAUDE_CONFIG_DIR;
	return configured === undefined ? path.join(env.HOME || os.homedir(), ".claude") : path.resolve(cwd, configured);
}

export const install = /* @__PURE__ */ installOf(dialect, {
	where: WHERE,
	command: SPELLING,
	text: INSTALL_TEXT,
	async alsoEdit(text, file, options) {
		const todo = options.todoTools ? withTodoTools(text, file) : { text, changed: false };
		return { ...todo, remarks: [todoToolsNote(options, file, todo.text, todo.changed)] };
	},
});

/** What it set, or that they are off and how to turn them on: never silent. */
function todoToolsNote(options: family.InstallOptions, file: string, text: string, changed: boolean): string {
	if (options.todoTools) return changed ? TODO_TOOLS_TEXT.set(file) : TODO_TOOLS_TEXT.alreadySet(file);
	const inShell = turnsOn(options.env[TODO_TOOLS_VARIABLE]);
	if (inShell || settingsTurnOn(plainValue(parseSettings(text, file)))) {
		return TODO_TOOLS_TEXT.alreadySet(inShell ? "this shell" : file);
	}
	return TODO_TOOLS_TEXT.offer(options.scope);
}

export const formFor = (scope: InstallScope, root: string = packageRoot()) => family.formFor(scope, root, HOOK_BUNDLE);
export const hookLinkFile = (env: NodeJS.ProcessEnv) => linkFileOf(env, HOOK_LINK);
export const hookLinkText = (bundle: string) => linkTextOf(bundle, LINK);

export const {
	install: installClaudeCodeWithNotes,
	uninstall: uninstallClaudeCode,
	withOurHooks,
	withoutOurHooks,
	ourEntries,
	parseSettings,
	hooksObject,
} = family.installerOf(install);
export const installClaudeCode = async (options: family.InstallOptions) =>
	(await installClaudeCodeWithNotes(options)).report;
