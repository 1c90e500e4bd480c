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
import { doctorCheck, type HooksDoctor } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { isPortable } from "../shared/hook-form.js";
import { isRecord } from "../shared/hook-input.js";
import { REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { DOCTOR_TEXT, INSTALL_TEXT } from "./messages.js";

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
	text: {
		...DOCTOR_TEXT,
		ok: (file, { version, count, where }) =>
			where === null ? DOCTOR_TEXT.pinnedOk(file, version, count) : DOCTOR_TEXT.portableOk(file, where),
	},
	place: (_scope, file) => file,
	inspect: (file, value) =>
		isRecord(value) && isRecord(value.hooksConfig) && value.hooksConfig.enabled === false
			? [{ check: HARNESS, level: "problem", message: DOCTOR_TEXT.hooksOff(file), fix: DOCTOR_TEXT.hooksOffFix, file }]
			: [],
};

export const {
	install: installGemini,
	uninstall: uninstallGemini,
	withOurHooks,
	withoutOurHooks,
	ourEntries,
	group: hookGroup,
} = family.installerOf(install);
export const { hooks: checkGeminiHooks } = doctorCheck(install, doctor);
