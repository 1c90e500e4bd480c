/**
 * `boulder doctor`'s Gemini CLI check: whether boulder's hooks are in the
 * user's or the project's settings, whether Gemini CLI's hooks are on at all,
 * and whether what the hooks run is there and is this version of boulder
 * (pinned hooks: the node and the hook program they name; portable hooks:
 * the boulder they find here, looked up as the shell does it).
 *
 * Every finding that needs action names the one command that fixes it.
 */
import { existsSync } from "node:fs";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { packageVersion, readConfigText } from "../shared/config-file.js";
import { isRecord, messageOf } from "../shared/hook-input.js";
import { parseSettings } from "../shared/hooks-file.js";
import { findInstalledBoulder } from "../shared/installed-boulder.js";
import { plainValue } from "../shared/settings-json.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { HOOK_BIN, HOOK_BUNDLE, HOOK_LINK, type OurCommand, REGISTRATIONS } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { DIALECT, INSTALL_SCOPES, ourEntries, settingsFile } from "./install.js";
import { DOCTOR_TEXT } from "./messages.js";

export type GeminiCheckContext = Pick<DoctorContext, "cwd" | "env">;

export const geminiDoctorCheck = {
	name: HARNESS,
	run: async (context: GeminiCheckContext) => [
		...(await checkGeminiHooks(context)),
		...harnessVersionFindings("gemini", context.env),
	],
};

export async function checkGeminiHooks(
	context: GeminiCheckContext,
	version: string = packageVersion(),
): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const installedIn: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		const file = settingsFile(scope, context);
		let settings: unknown;
		try {
			const text = await readConfigText(file);
			if (text === null) continue;
			settings = plainValue(parseSettings(DIALECT, text, file));
		} catch (error) {
			findings.push(
				finding("problem", DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file),
			);
			continue;
		}
		if (isRecord(settings) && isRecord(settings.hooksConfig) && settings.hooksConfig.enabled === false) {
			findings.push(finding("problem", DOCTOR_TEXT.hooksOff(file), DOCTOR_TEXT.hooksOffFix, file));
		}
		const ours = ourEntries(settings);
		if (ours.length === 0) continue;
		installedIn.push(file);
		findings.push(...judge(file, scope, ours, version, context));
	}
	// Not using Gemini CLI here is fine: said as a fact, with the command for those who do.
	if (installedIn.length === 0) findings.push(finding("ok", DOCTOR_TEXT.notInstalled, DOCTOR_TEXT.installFix));
	if (installedIn.length > 1) findings.push(finding("warn", DOCTOR_TEXT.twice(installedIn), DOCTOR_TEXT.twiceFix));
	return findings;
}

function judge(
	file: string,
	scope: string,
	ours: OurCommand[],
	version: string,
	context: GeminiCheckContext,
): DoctorFinding[] {
	const fix = DOCTOR_TEXT.reinstall(scope);
	const events = new Set(ours.map((entry) => entry.event));
	const missing = missingRegistrations(REGISTRATIONS, ours);
	if (missing.length > 0) return [finding(MISSING_EVENT_SEVERITY, DOCTOR_TEXT.missingEvents(file, missing), fix, file)];
	const pinned = ours.find((entry) => entry.form === "pinned");
	if (pinned?.form === "pinned") {
		for (const program of [pinned.node, pinned.bundle]) {
			if (!existsSync(program)) return [finding("problem", DOCTOR_TEXT.programGone(file, program), fix, file)];
		}
		if (pinned.version !== version) {
			return [finding("warn", DOCTOR_TEXT.otherVersion(file, pinned.version, version), fix, file)];
		}
		return [finding("ok", DOCTOR_TEXT.pinnedOk(file, version, events.size), null, file)];
	}
	const found = portableTarget(context);
	if (found === null) return [finding("warn", DOCTOR_TEXT.noneFound(file), fix, file)];
	return [finding("ok", DOCTOR_TEXT.portableOk(file, found), null, file)];
}

/** What the portable command runs here, looked up in its order; null when it finds nothing. */
function portableTarget(context: GeminiCheckContext): string | null {
	const found = findInstalledBoulder(context, { bundle: HOOK_BUNDLE, link: HOOK_LINK, bin: HOOK_BIN });
	return found.kind === "none" ? null : found.where;
}

function finding(level: DoctorFinding["level"], message: string, fix: string | null, file?: string): DoctorFinding {
	return { check: HARNESS, level, message, fix, ...(file ? { file } : {}) };
}
