/**
 * `boulder doctor`'s Qwen Code check: where boulder's hooks are (project or
 * user settings), whether what they run is there and is this version, and
 * how many continuations Qwen Code honours per prompt (its cap ends a long
 * list's run early unless it is lifted).
 */
import { existsSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { whichProgram } from "../../engine/programs.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { messageOf } from "../shared/hook-input.js";
import { parseSettings } from "../shared/hooks-file.js";
import { rootOfBundle } from "../shared/programs.js";
import { plainValue } from "../shared/settings-json.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { effectiveCap, MAX_CAP } from "./cap.js";
import { HOOK_BIN, HOOK_BUNDLE, type OurCommand, REGISTRATIONS } from "./hook-config.js";
import { HARNESS } from "./hook-input.js";
import { INSTALL_SCOPES, ourQwenEntries, QWEN_SETTINGS, settingsFile } from "./install.js";
import { DOCTOR_TEXT } from "./messages.js";

type Context = Pick<DoctorContext, "cwd" | "env">;

export const qwenDoctorCheck = {
	name: HARNESS,
	run: async (context: Context) => [...(await checkQwenHooks(context)), ...harnessVersionFindings("qwen", context.env)],
};

export async function checkQwenHooks(context: Context, version: string = packageVersion()): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const places: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		const file = settingsFile(scope, context);
		let value: unknown;
		try {
			value = plainValue(parseSettings(QWEN_SETTINGS, await readFile(file, "utf8"), file));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			findings.push(
				finding("problem", DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file),
			);
			continue;
		}
		const entries = ourQwenEntries(value);
		if (entries.length === 0) continue;
		places.push(`${scope} settings`);
		findings.push(...judgeHooks(scope, file, entries, version, context));
	}
	if (places.length === 0) {
		findings.push(finding("ok", DOCTOR_TEXT.notInstalled, DOCTOR_TEXT.installFix));
		return findings;
	}
	if (places.length > 1) {
		findings.push(finding("warn", DOCTOR_TEXT.twice(places), "keep one: `boulder uninstall qwen --user`"));
	}
	const cap = await effectiveCap(context.env, context.cwd);
	findings.push(
		cap < MAX_CAP
			? finding("warn", DOCTOR_TEXT.lowCap(cap), DOCTOR_TEXT.lowCapFix)
			: finding("ok", DOCTOR_TEXT.capOk(cap), null),
	);
	return findings;
}

function judgeHooks(
	scope: string,
	file: string,
	entries: OurCommand[],
	version: string,
	context: Context,
): DoctorFinding[] {
	const reinstall = `\`boulder install qwen --${scope}\``;
	const found: DoctorFinding[] = [];
	const missing = missingRegistrations(REGISTRATIONS, entries);
	if (missing.length > 0)
		found.push(finding(MISSING_EVENT_SEVERITY, DOCTOR_TEXT.missingEvents(file, missing), reinstall, file));
	const pinned = entries.filter((entry) => entry.form === "pinned");
	for (const program of new Set(pinned.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) found.push(finding("problem", DOCTOR_TEXT.programGone(file, program), reinstall, file));
	}
	const versions = new Set(
		pinned
			.filter((entry) => existsSync(entry.bundle))
			.map((entry) => packageAt(rootOfBundle(entry.bundle))?.version ?? entry.version),
	);
	if (entries.some((entry) => entry.form === "portable")) {
		const runs = portableProgram(context);
		if (runs === null) found.push(finding("problem", DOCTOR_TEXT.noneFound(file), reinstall, file));
		else versions.add(packageAt(rootOfBundle(realpathSync(runs)))?.version ?? version);
	}
	for (const installed of versions) {
		if (installed !== version)
			found.push(finding("warn", DOCTOR_TEXT.otherVersion(file, installed, version), reinstall, file));
	}
	if (found.length === 0) {
		const form = pinned.length > 0 ? `pinned to boulder ${version}` : "portable";
		found.push(finding("ok", DOCTOR_TEXT.ok(file, form, entries.length), null, file));
	}
	return found;
}

/** The hook program the portable commands run here, found as the shell finds it; null when none. */
function portableProgram(context: Context): string | null {
	const own = path.join(context.cwd, "node_modules", "boulder-agent", HOOK_BUNDLE);
	if (existsSync(own)) return own;
	return whichProgram(HOOK_BIN, context.env);
}

function finding(level: DoctorFinding["level"], message: string, fix: string | null, file?: string): DoctorFinding {
	return { check: HARNESS, level, message, fix, ...(file ? { file } : {}) };
}
