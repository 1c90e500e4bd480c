/**
 * Qwen Code's part of the family's installer and doctor (`command-hook/
 * install.ts`, `command-hook/doctor.ts`): where its settings live, its
 * settings stamp, its continuation cap, and its words.
 *
 * - project: `<cwd>/.qwen/settings.json` (committed): the portable commands;
 * - user: `~/.qwen/settings.json`, or `$QWEN_HOME/settings.json`: pinned.
 *
 * Qwen Code stamps the settings files it reads with `"$version"`; a file
 * boulder created holds it from the start, so that stamp alone never keeps
 * the file at uninstall. `--raise-cap` also sets `stopHookBlockingCap` to its
 * maximum in the same file; the install and the doctor say where the cap
 * stands either way.
 */
import path from "node:path";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { doctorCheck, type HooksDoctor } from "../command-hook/doctor.js";
import * as family from "../command-hook/install.js";
import { isPortable } from "../shared/hook-form.js";
import { effectiveCap, MAX_CAP, qwenHome } from "./cap.js";
import { REGISTRATIONS, SPELLING } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { CAP_TEXT, DOCTOR_TEXT, INSTALL_TEXT } from "./messages.js";
import { withRaisedCap } from "./raise-cap.js";

/** Where its settings are: the project's (the default), the user's. */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".qwen", "settings.json"),
	user: ({ env }: family.Place) => path.join(qwenHome(env), "settings.json"),
};
export type InstallScope = keyof typeof WHERE;
export const settingsFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	/** The settings version Qwen Code 0.24 stamps into the files it reads. */
	stamp: { $version: 4 },
	text: INSTALL_TEXT,
	notes: ({ form }) => [isPortable(form) ? INSTALL_TEXT.portable : INSTALL_TEXT.pinned(form.node, form.bundle)],
	async alsoEdit(text, file, options) {
		const raised = options.raiseCap ? withRaisedCap(text, file) : { text, changed: false };
		return { ...raised, notes: [await capNote(options, file, raised.changed)] };
	},
};

/** What the install says about Qwen Code's continuation cap: what it set, or where it stands and how to raise it. Never silent. */
async function capNote(options: family.InstallOptions, file: string, raised: boolean): Promise<string> {
	if (options.raiseCap) return raised ? CAP_TEXT.set(file) : CAP_TEXT.alreadySet(file);
	const cap = await effectiveCap(options.env, options.cwd);
	return cap >= MAX_CAP ? CAP_TEXT.ok(cap) : CAP_TEXT.offer(cap, options.scope);
}

export const doctor: HooksDoctor = {
	text: {
		...DOCTOR_TEXT,
		ok: (file, { version, count, where }) =>
			DOCTOR_TEXT.ok(file, where === null ? `pinned to boulder ${version}` : "portable", count),
	},
	/** How many continuations Qwen Code honours per prompt: its cap ends a long list's run early unless it is lifted. */
	async installed(_values, context): Promise<DoctorFinding[]> {
		const cap = await effectiveCap(context.env, context.cwd);
		return cap < MAX_CAP
			? [{ check: HARNESS, level: "warn", message: DOCTOR_TEXT.lowCap(cap), fix: DOCTOR_TEXT.lowCapFix }]
			: [{ check: HARNESS, level: "ok", message: DOCTOR_TEXT.capOk(cap), fix: null }];
	},
};

export const {
	install: installQwen,
	uninstall: uninstallQwen,
	withOurHooks: withOurQwenHooks,
	withoutOurHooks: withoutOurQwenHooks,
} = family.installerOf(install);
export const { hooks: checkQwenHooks } = doctorCheck(install, doctor);
