/**
 * Copilot CLI's part of the family's installer and doctor (`command-hook/
 * install.ts`, `command-hook/doctor.ts`): boulder's own hooks file in one of
 * Copilot's hooks folders, written whole and taken away whole at uninstall
 * (with the folders the install made for it), which leaves the folder byte
 * for byte as it was. A `boulder.json` that holds anyone else's hooks, or is
 * not JSON, is refused, never rewritten.
 *
 * - project: `<cwd>/.github/hooks/boulder.json` (committed): the portable
 *   commands, and a link to this copy of boulder for this user;
 * - user: `$COPILOT_HOME/hooks/boulder.json` (default `~/.copilot/hooks/`): pinned.
 */
import os from "node:os";
import path from "node:path";
import { doctorCheck, type HooksDoctor } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { type HookForm, isPortable } from "../shared/hook-form.js";
import { HOOKS_FILE, REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { DOCTOR_TEXT, INSTALL_TEXT } from "./messages.js";

/** Where boulder's hooks file is: the project's hooks folder (the default), the user's. */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".github", "hooks", HOOKS_FILE),
	user: ({ env }: family.Place) => path.join(copilotHome(env), "hooks", HOOKS_FILE),
};
export type InstallScope = keyof typeof WHERE;
export const hooksFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

/** `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: NodeJS.ProcessEnv): string {
	return env.COPILOT_HOME || path.join(env.HOME || os.homedir(), ".copilot");
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	layout: "own",
	entry: (bash, { timeout }) => ({ type: "command", bash, timeoutSec: timeout }),
	commandKey: "bash",
	text: INSTALL_TEXT,
	notes: ({ form, link, root }) => [
		isPortable(form) ? INSTALL_TEXT.portable(link, root) : INSTALL_TEXT.pinned(form.node, form.bundle),
		INSTALL_TEXT.autopilot,
	],
};

export const doctor: HooksDoctor = {
	text: {
		...DOCTOR_TEXT,
		otherVersion: (file, installed, version, where) => DOCTOR_TEXT.otherVersion(file, installed, where, version),
		ok: (file, { version, count, where }) =>
			where === null ? DOCTOR_TEXT.pinnedOk(file, version, count) : DOCTOR_TEXT.portableOk(file, version, where),
	},
	place: (scope) => `${scope} hooks`,
};

export const { install: installCopilot, uninstall: uninstallCopilot } = family.installerOf(install);
export const hooksFileText = (form: HookForm) => family.ownFileText(install, form);
export const { hooks: checkCopilotHooks } = doctorCheck(install, doctor);
