/**
 * Codex's part of the family's installer and doctor (`command-hook/
 * install.ts`, `command-hook/doctor.ts`): where its hooks files live, and
 * whether Codex will run the hooks at all, which is Codex's alone: it skips
 * hooks the user has not trusted (or that changed since), and a project's
 * hooks file in a project it does not trust (`trust.ts`). Installing does not
 * trust the hooks: that is the user's review in Codex, and the install says
 * how (`TRUST_NOTE`).
 *
 * - user:    `$CODEX_HOME/hooks.json` (default `~/.codex`): every project, just you
 * - project: `<cwd>/.codex/hooks.json` (committed, shared with the team)
 */
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { doctorCheck, type HooksDoctor, portableHere } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { isPortable } from "../shared/hook-form.js";
import { parseOurCommand, REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { DOCTOR_TEXT, INSTALL_TEXT, PROJECT_TRUST_NOTE, TRUST_NOTE } from "./messages.js";
import { projectTrusted, readHookStates, type TrustStatus, trustOf } from "./trust.js";

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
	return env.CODEX_HOME || path.join(env.HOME || os.homedir(), ".codex");
}

/** Where its hooks files are: the user's (the default), the project's. */
const WHERE = {
	user: ({ env }: family.Place) => path.join(codexHome(env), "hooks.json"),
	project: ({ cwd }: family.Place) => path.join(cwd, ".codex", "hooks.json"),
};
export type InstallScope = keyof typeof WHERE;
export const hooksFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	text: INSTALL_TEXT,
	notes: ({ form, options }) => {
		if (!isPortable(form)) return [INSTALL_TEXT.pinned(form.node, form.bundle), TRUST_NOTE];
		const here = portableHere(install, options);
		return [INSTALL_TEXT.portable(here.kind === "none" ? null : here.where), PROJECT_TRUST_NOTE, TRUST_NOTE];
	},
};

export const doctor: HooksDoctor = {
	text: {
		...DOCTOR_TEXT,
		ok: (file, { version, count, where }) =>
			DOCTOR_TEXT.ok(
				file,
				where === null
					? `pinned to boulder ${version}, trusted, ${count} events`
					: `portable, trusted; here they run ${where}`,
			),
	},
	place: (scope) => `${scope} hooks`,
	judge: async ({ scope, file, value, context }) => {
		const found: DoctorFinding[] = [];
		const say = (level: DoctorFinding["level"], message: string, fix: string) =>
			found.push({ check: HARNESS, level, message, fix, file });
		const config = (await readText(path.join(codexHome(context.env), "config.toml"))) ?? "";
		if (scope === "project" && !projectTrusted(config, path.resolve(context.cwd))) {
			say("warn", DOCTOR_TEXT.projectUntrusted(path.resolve(context.cwd)), DOCTOR_TEXT.projectTrustFix);
		}
		const trust = trustOf(file, value, readHookStates(config), (handler) => parseOurCommand(handler.command) !== null);
		const with_ = (status: TrustStatus) => trust.filter((one) => one.status === status).map((one) => one.event);
		if (with_("untrusted").length > 0)
			say("problem", DOCTOR_TEXT.untrusted(file, with_("untrusted")), DOCTOR_TEXT.trustFix);
		if (with_("modified").length > 0)
			say("problem", DOCTOR_TEXT.modified(file, with_("modified")), DOCTOR_TEXT.trustFix);
		if (with_("disabled").length > 0) {
			say("warn", DOCTOR_TEXT.disabled(file, with_("disabled")), "turn them on again with /hooks in Codex");
		}
		return found;
	},
};

async function readText(file: string): Promise<string | null> {
	try {
		return await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

export const { install: installCodex, uninstall: uninstallCodex } = family.installerOf(install);
export const { hooks: checkCodexHooks } = doctorCheck(install, doctor);
