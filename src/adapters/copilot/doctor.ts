/**
 * `boulder doctor`'s Copilot CLI check: boulder's hooks file in the project
 * (`.github/hooks/boulder.json`) and the user's hooks folder, and whether
 * what each runs is there and is this version of boulder: the node and hook
 * program of pinned hooks; for portable ones, the boulder the shell finds
 * here (`shared/installed-boulder.ts`). Every finding that needs action names
 * the one command that fixes it.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { messageOf } from "../shared/hook-input.js";
import { findInstalledBoulder } from "../shared/installed-boulder.js";
import { rootOfBundle } from "../shared/programs.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { HOOK_BIN, HOOK_BUNDLE, HOOK_LINK, type OurCommand, REGISTRATIONS } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { hooksFile, INSTALL_SCOPES, type InstallScope, ourEntries } from "./install.js";
import { DOCTOR_TEXT } from "./messages.js";

type Context = Pick<DoctorContext, "cwd" | "env">;

export const copilotDoctorCheck = {
	name: HARNESS,
	run: async (context: Context) => [
		...(await checkCopilotHooks(context)),
		...harnessVersionFindings("copilot", context.env),
	],
};

export async function checkCopilotHooks(
	context: Context,
	version: string = packageVersion(),
): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const places: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		const file = hooksFile(scope, context);
		let entries: OurCommand[];
		try {
			entries = ourEntries(await readFile(file, "utf8"), file);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			findings.push(
				finding("problem", DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file),
			);
			continue;
		}
		places.push(`${scope} hooks`);
		findings.push(...judge(scope, file, entries, version, context));
	}
	if (places.length === 0) findings.push(finding("ok", DOCTOR_TEXT.notInstalled, DOCTOR_TEXT.installFix));
	if (places.length > 1) {
		findings.push(finding("warn", DOCTOR_TEXT.twice(places), "keep one: `boulder uninstall copilot --user`"));
	}
	return findings;
}

function judge(
	scope: InstallScope,
	file: string,
	entries: OurCommand[],
	version: string,
	context: Context,
): DoctorFinding[] {
	const reinstall = `\`boulder install copilot --${scope}\``;
	const found: DoctorFinding[] = [];
	const missing = missingRegistrations(REGISTRATIONS, entries);
	if (missing.length > 0)
		found.push(finding(MISSING_EVENT_SEVERITY, DOCTOR_TEXT.missingEvents(file, missing), reinstall, file));
	const pinned = entries.flatMap((entry) => (entry.form === "pinned" ? [entry] : []));
	for (const program of new Set(pinned.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) found.push(finding("problem", DOCTOR_TEXT.programGone(file, program), reinstall, file));
	}
	for (const bundle of new Set(pinned.map((entry) => entry.bundle))) {
		if (!existsSync(bundle)) continue;
		const installed = packageAt(rootOfBundle(bundle))?.version ?? null;
		if (installed !== null && installed !== version) {
			found.push(finding("warn", DOCTOR_TEXT.otherVersion(file, installed, bundle, version), reinstall, file));
		}
	}
	const portable = entries.some((entry) => entry.form === "portable");
	const here = portable ? findInstalledBoulder(context, { bundle: HOOK_BUNDLE, link: HOOK_LINK, bin: HOOK_BIN }) : null;
	if (here?.danglingLink) {
		const { link, target } = here.danglingLink;
		found.push(finding("problem", DOCTOR_TEXT.linkGone(link, target), reinstall, link));
	}
	if (here?.kind === "none" && !here.danglingLink) {
		found.push(finding("problem", DOCTOR_TEXT.noneFound(file), reinstall, file));
	}
	if (here && here.kind !== "none" && here.version !== null && here.version !== version) {
		found.push(finding("warn", DOCTOR_TEXT.otherVersion(file, here.version, here.where, version), reinstall, file));
	}
	if (found.length > 0) return found;
	const message = here
		? DOCTOR_TEXT.portableOk(file, version, here.where)
		: DOCTOR_TEXT.pinnedOk(file, version, entries.length);
	return [finding("ok", message, null, file)];
}

function finding(level: DoctorFinding["level"], message: string, fix: string | null, file?: string): DoctorFinding {
	return { check: HARNESS, level, message, fix, ...(file ? { file } : {}) };
}
