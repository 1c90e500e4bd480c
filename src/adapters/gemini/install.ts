/**
 * Gemini CLI's part of the family's installer and doctor (`command-hook/
 * install.ts`, `command-hook/doctor.ts`): where its settings live, what one
 * hook entry looks like (named, its timeout in milliseconds), that its
 * settings allow comments, and its words.
 *
 * - user:    `~/.gemini/settings.json`, or `$GEMINI_CLI_HOME/.gemini/settings.json` (the default)
 * - project: `<cwd>/.gemini/settings.json` (committed: the portable commands,
 *   and a link to this copy of boulder for this user)
 *
 * Its doctor also says when a settings file turns Gemini CLI's hooks off.
 */
import os from "node:os";
import path from "node:path";
import { checkHooks, type HooksDoctor } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { type HookForm, isPortable } from "../shared/hook-form.js";
import { isRecord } from "../shared/hook-input.js";
import { ourEntries as entriesOf } from "../shared/hooks-file.js";
import { type HookRegistration, REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { DOCTOR_TEXT, INSTALL_TEXT } from "./messages.js";

export const INSTALL_SCOPES = ["user", "project"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export function settingsFile(scope: InstallScope, place: family.Place): string {
	if (scope === "user") return path.join(geminiHome(place.env), ".gemini", "settings.json");
	return path.join(place.cwd, ".gemini", "settings.json");
}

/** Gemini CLI's home: `$GEMINI_CLI_HOME`, else the user's. */
export function geminiHome(env: NodeJS.ProcessEnv): string {
	return env.GEMINI_CLI_HOME || env.HOME || os.homedir();
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	title: "Gemini CLI",
	scopes: INSTALL_SCOPES,
	files: (scope, place) => [settingsFile(scope as InstallScope, place)],
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
	text: {
		...DOCTOR_TEXT,
		otherVersion: (file, installed, _where, version) => DOCTOR_TEXT.otherVersion(file, installed, version),
		ok: (file, { version, count, where }) =>
			where === null ? DOCTOR_TEXT.pinnedOk(file, version, count) : DOCTOR_TEXT.portableOk(file, where),
	},
	place: (_scope, file) => file,
	inspect: (file, value) =>
		isRecord(value) && isRecord(value.hooksConfig) && value.hooksConfig.enabled === false
			? [{ check: HARNESS, level: "problem", message: DOCTOR_TEXT.hooksOff(file), fix: DOCTOR_TEXT.hooksOffFix, file }]
			: [],
};

export const installGemini = (options: family.InstallOptions) => family.installHooks(install, options);
export const uninstallGemini = (options: family.InstallOptions) => family.uninstallHooks(install, options);
export const withOurHooks = (text: string, file: string, form: HookForm) =>
	family.withOurHooks(install, text, file, form);
export const withoutOurHooks = (text: string, file: string) => family.withoutOurHooks(install, text, file);
export const ourEntries = (settings: unknown) => entriesOf(family.hooksDialect(install), settings);
export const hookGroup = (form: HookForm, registration: HookRegistration) =>
	family.hooksDialect(install).group(form, registration);
export const checkGeminiHooks = (context: family.Place, version?: string) =>
	checkHooks(install, doctor, context, version);
