/**
 * Gemini CLI's dialect of the command-hook family (`command-hook/dialect.ts`): its registrations, where its
 * settings live (user, the default; project, committed: the portable commands, and the user's link to this
 * copy), what one hook entry looks like (named, its timeout in ms, in settings that allow comments), its words
 * and the adapter the registry lists. Its event mapping is `events.ts`, its transcript reader `transcript.ts`.
 * Gemini CLI puts the project's folder in for `$GEMINI_PROJECT_DIR` already quoted for the shell, so the
 * portable command uses it outside double quotes (`docs/gemini-notes.md`). Its doctor also says when a
 * settings file turns Gemini CLI's hooks off.
 */
import path from "node:path";
import { adapterOf } from "../command-hook/adapter.js";
import { type CommandHookDialect, installOf } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import { harnessHome } from "../shared/harness-home.js";
import { isRecord } from "../shared/hook-input.js";
import { hooksDoctorText, hooksInstallText } from "../shared/install-messages.js";
import {
	HARNESS,
	HOOK_EVENTS,
	type HookEvent,
	type HookInput,
	handleHook,
	normalizeGeminiTodos,
	parseHookInput,
} from "./events.js";
import { readTurn, TODO_TOOL } from "./transcript.js";

/** Timeouts in seconds, as every dialect's (`install.entry` writes ms). No PreCompress: it fires before each request. */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "BeforeAgent", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterTool", matcher: `^${TODO_TOOL}$`, timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "AfterAgent", timeout: STOP_TIMEOUT_SECONDS },
];

const PROJECT_DIR_VAR = "GEMINI_PROJECT_DIR";

export const dialect: CommandHookDialect<HookInput> = {
	harness: HARNESS,
	events: HOOK_EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: PROJECT_DIR_VAR,
	parse: parseHookInput,
	handle: (input, engine) => handleHook(input, { engine, readTurn }),
	stopEvent: "AfterAgent",
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

export const INSTALL_TEXT = /* @__PURE__ */ hooksInstallText("Gemini CLI", {
	restart: "Gemini CLI reads hooks when it starts: restart running sessions to pick them up.",
});

const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksDoctorText("Gemini CLI", HARNESS, { link: true }),
	{
		unreadable: (file: string, problem: string) =>
			`${file} cannot be read as JSON (${problem}); Gemini CLI will not read its settings either`,
		twice: (files: string[]) =>
			`boulder's Gemini CLI hooks are in more than one settings file (${files.join(", ")}): every event runs boulder more than once`,
		twiceFix: "`boulder uninstall gemini --user` or `--project` removes one set",
		reinstall: (scope: string) => `\`boulder install gemini --${scope}\` puts them right`,
		ok: (file: string, { version, count, where }: HooksOk) =>
			`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}, ${count} events` : `portable: here they run ${where}`}); Gemini CLI has no continuation cap that holds: boulder's budgets are the limit`,
		hooksOff: (file: string) => `${file} turns Gemini CLI's hooks off (hooksConfig.enabled: false): boulder never runs`,
		hooksOffFix: 'set "hooksConfig": {"enabled": true} there, or remove the key',
	},
);

const WHERE = {
	// Gemini CLI's variable names the home that holds its folder: "" is that home itself.
	user: ({ env }: family.Place) => path.join(harnessHome(env, "GEMINI_CLI_HOME", ""), ".gemini", "settings.json"),
	project: ({ cwd }: family.Place) => path.join(cwd, ".gemini", "settings.json"),
};
export const settingsFile = (scope: keyof typeof WHERE, place: family.Place): string => WHERE[scope](place);

export const install = /* @__PURE__ */ installOf(dialect, {
	where: WHERE,
	command: /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { projectDirQuoted: true }),
	entry: (command, { event, timeout }) => ({
		name: `boulder-${event}`,
		type: "command",
		command,
		timeout: timeout * 1000,
	}),
	syntax: "jsonc",
	text: INSTALL_TEXT,
});

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	place: (_scope, file) => file,
	inspect: (file, value) =>
		isRecord(value) && isRecord(value.hooksConfig) && value.hooksConfig.enabled === false
			? [{ check: HARNESS, level: "problem", message: DOCTOR_TEXT.hooksOff(file), fix: DOCTOR_TEXT.hooksOffFix, file }]
			: [],
};

export const geminiAdapter = /* @__PURE__ */ adapterOf({
	title: "Gemini CLI",
	program: "gemini",
	scopes: {
		user: "your user settings (~/.gemini/settings.json or $GEMINI_CLI_HOME): every project (the default)",
		project:
			"this project's .gemini/settings.json, shared with everyone who works on it (no path of this machine in it)",
	},
	parts: { dialect, install, doctor },
	normalizeTodos: normalizeGeminiTodos,
});
