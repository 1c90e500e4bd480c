/**
 * Gemini CLI's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations and their command, `GEMINI_PROJECT_DIR`, where its
 * settings live, what one hook entry looks like (named, its timeout in
 * milliseconds), that its settings allow comments, its words, and the
 * adapter the registry lists. Its events, input and `write_todos` list are
 * its event mapping's (`events.ts`, AfterAgent ends the turn); its
 * transcript reader is `transcript.ts`. Run by the bundled hook program
 * (`boulder-hook.cjs gemini <Event>`) and `boulder hook gemini <Event>`.
 *
 * The command is boulder's one hook program for command-hook harnesses,
 * `dist/hook/boulder-hook.cjs gemini <Event>`, pinned (user settings) or
 * portable (the project's settings a team commits: the project's
 * devDependency, the user's link `$XDG_DATA_HOME/boulder/boulder-hook.cjs`,
 * `boulder-hook` on the PATH; with none it exits quietly). Gemini CLI
 * replaces `$GEMINI_PROJECT_DIR` in a command with the project's folder
 * already quoted for the shell, so the portable command uses it outside
 * double quotes.
 *
 * - user:    `~/.gemini/settings.json`, or `$GEMINI_CLI_HOME/.gemini/settings.json` (the default)
 * - project: `<cwd>/.gemini/settings.json` (committed: the portable commands,
 *   and a link to this copy of boulder for this user)
 *
 * Its doctor also says when a settings file turns Gemini CLI's hooks off.
 */
import os from "node:os";
import path from "node:path";
import { commandHookAdapter } from "../command-hook/adapter.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { type OpenEngine, runnerOf } from "../command-hook/runtime.js";
import { boulderHook } from "../command-hook/spelling.js";
import { isPortable } from "../shared/hook-form.js";
import { isRecord } from "../shared/hook-input.js";
import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";
import {
	HARNESS,
	HOOK_EVENTS,
	type HookEvent,
	type HookInput,
	handleHook,
	normalizeGeminiTodos,
	parseHookInput,
	TODO_TOOL,
} from "./events.js";
import { readTurn } from "./transcript.js";

/**
 * Timeouts are seconds here, as every dialect's table; Gemini CLI's settings
 * hold milliseconds (`install.entry`). Not PreCompress: Gemini CLI fires it before every model request, before it
 * decides whether to compress at all, and nothing of boulder needs it.
 */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "BeforeAgent", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterTool", matcher: `^${TODO_TOOL}$`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterAgent", timeout: STOP_TIMEOUT_SECONDS },
];

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "GEMINI_PROJECT_DIR";

export interface RunHookOptions {
	/** Opens the engine for a folder; tests pass their own. */
	open?: OpenEngine;
	readTurn?: (file: string) => ReturnType<typeof readTurn>;
}

export function geminiDialect(options: RunHookOptions = {}): CommandHookDialect<HookInput> {
	const read = options.readTurn ?? ((file: string) => readTurn(file));
	return {
		harness: HARNESS,
		events: HOOK_EVENTS,
		registrations: REGISTRATIONS,
		projectDirVar: "GEMINI_PROJECT_DIR",
		parse: parseHookInput,
		handle: (input, engine) => handleHook(input, { engine, readTurn: read }),
		stopEvent: "AfterAgent",
	};
}

export const dialect = geminiDialect();

export const runGeminiHook = runnerOf<RunHookOptions, HookInput>(geminiDialect);

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { projectDirQuoted: true });

export const INSTALL_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksInstallText("Gemini CLI", {
		restart: "Gemini CLI reads hooks when it starts: restart running sessions to pick them up.",
	}),
	{
		portable: (link: string | null, root: string) =>
			portableHooksNote({ onPath: "boulder-hook", linked: { link, root }, notice: false }),
	},
);

/** What `boulder doctor` says about Gemini CLI installs. */
export const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksDoctorText("Gemini CLI"), {
	notInstalled: "boulder's Gemini CLI hooks are not in this project's or your user settings",
	installFix: "`boulder install gemini` adds them, if you use Gemini CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Gemini CLI will not read its settings either`,
	twice: (files: string[]) =>
		`boulder's Gemini CLI hooks are in more than one settings file (${files.join(", ")}): every event runs boulder more than once`,
	twiceFix: "`boulder uninstall gemini --user` or `--project` removes one set",
	reinstall: (scope: string) => `\`boulder install gemini --${scope}\` puts them right`,
	ok: (file: string, { version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}, ${count} events` : `portable: here they run ${where}`}); Gemini CLI continues a turn at most 100 times in a row`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, nothing on the PATH): they do nothing`,
	hooksOff: (file: string) => `${file} turns Gemini CLI's hooks off (hooksConfig.enabled: false): boulder never runs`,
	hooksOffFix: 'set "hooksConfig": {"enabled": true} there, or remove the key',
});

/** Where its settings are: the user's (the default), the project's. */
const WHERE = {
	user: ({ env }: family.Place) => path.join(geminiHome(env), ".gemini", "settings.json"),
	project: ({ cwd }: family.Place) => path.join(cwd, ".gemini", "settings.json"),
};
export type InstallScope = keyof typeof WHERE;
export const settingsFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

/** Gemini CLI's home: `$GEMINI_CLI_HOME`, else the user's. */
export function geminiHome(env: NodeJS.ProcessEnv): string {
	return env.GEMINI_CLI_HOME || env.HOME || os.homedir();
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	entry: (command, { event, timeout }) => ({
		name: `boulder-${event}`,
		type: "command",
		command,
		timeout: timeout * 1000,
	}),
	syntax: "jsonc",
	text: INSTALL_TEXT,
	notes: ({ form, link, root }) => [
		isPortable(form) ? INSTALL_TEXT.portable(link, root) : INSTALL_TEXT.pinned(form.node, form.bundle),
	],
};

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	place: (_scope, file) => file,
	inspect: (file, value) =>
		isRecord(value) && isRecord(value.hooksConfig) && value.hooksConfig.enabled === false
			? [{ check: HARNESS, level: "problem", message: DOCTOR_TEXT.hooksOff(file), fix: DOCTOR_TEXT.hooksOffFix, file }]
			: [],
};

/**
 * Gemini CLI as the adapter registry sees it (`command-hook/adapter.ts`):
 * hooks in its settings files, boulder's hook program per event, its
 * `write_todos` list.
 */
export const geminiAdapter = /* @__PURE__ */ commandHookAdapter({
	name: HARNESS,
	title: "Gemini CLI",
	program: "gemini",
	scopes: [
		{
			name: "user",
			help: "your user settings (~/.gemini/settings.json or $GEMINI_CLI_HOME): every project (the default)",
		},
		{
			name: "project",
			help: "this project's .gemini/settings.json, shared with everyone who works on it (no path of this machine in it)",
		},
	],
	defaultScope: "user",
	events: HOOK_EVENTS,
	dialect: async () => ({ dialect }),
	install: async () => ({ install, doctor }),
	normalizeTodos: normalizeGeminiTodos,
});
