/**
 * `boulder doctor`'s Codex check: where boulder's hooks are (the user's
 * `$CODEX_HOME/hooks.json`, the project's `.codex/hooks.json`), whether what
 * they run is there and is this version, and whether Codex will run them at
 * all: it skips hooks the user has not trusted (or that changed since), and a
 * project's hooks file in a project it does not trust (`trust.ts`).
 *
 * Every finding that needs action names what fixes it.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { messageOf } from "../shared/hook-input.js";
import { parseSettings } from "../shared/hooks-file.js";
import { plainValue } from "../shared/settings-json.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { type OurCommand, parseOurCommand, REGISTRATIONS } from "./hook-config.js";
import { codexHome, DIALECT, hooksFile, INSTALL_SCOPES, ourEntries, portableFinds } from "./install.js";
import { DOCTOR_TEXT } from "./messages.js";
import { projectTrusted, readHookStates, type TrustStatus, trustOf } from "./trust.js";

const CHECK = "codex";

export type CodexCheckContext = Pick<DoctorContext, "cwd" | "env">;

export const codexDoctorCheck = {
	name: CHECK,
	run: async (context: CodexCheckContext) => [
		...(await checkCodexHooks(context)),
		...harnessVersionFindings("codex", context.env),
	],
};

export async function checkCodexHooks(
	context: CodexCheckContext,
	version: string = packageVersion(),
): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const places: string[] = [];
	const config = (await readText(path.join(codexHome(context.env), "config.toml"))) ?? "";
	for (const scope of INSTALL_SCOPES) {
		const file = hooksFile(scope, context);
		const text = await readText(file).catch((error: unknown) => {
			findings.push(problem(DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file));
			return null;
		});
		if (text === null) continue;
		let value: unknown;
		try {
			value = plainValue(parseSettings(DIALECT, text, file));
		} catch (error) {
			findings.push(problem(DOCTOR_TEXT.unreadable(file, messageOf(error)), DOCTOR_TEXT.unreadableFix, file));
			continue;
		}
		const entries = ourEntries(value);
		if (entries.length === 0) continue;
		places.push(`${scope} hooks`);
		findings.push(...judgeHooks(scope, file, value, entries, version, config, context));
	}
	if (places.length === 0) {
		findings.push({ check: CHECK, level: "ok", message: DOCTOR_TEXT.notInstalled, fix: DOCTOR_TEXT.installFix });
	}
	if (places.length > 1) {
		findings.push(warn(DOCTOR_TEXT.twice(places), "keep one: `boulder uninstall codex --project`"));
	}
	return findings;
}

function judgeHooks(
	scope: string,
	file: string,
	value: unknown,
	entries: OurCommand[],
	version: string,
	config: string,
	context: CodexCheckContext,
): DoctorFinding[] {
	const reinstall = `\`boulder install codex --${scope}\``;
	const found: DoctorFinding[] = [];
	const missing = missingRegistrations(REGISTRATIONS, entries);
	if (missing.length > 0) {
		found.push({
			...warn(DOCTOR_TEXT.missingEvents(file, missing), reinstall, file),
			level: MISSING_EVENT_SEVERITY,
		});
	}
	const pinned = entries.filter((entry) => entry.form === "pinned");
	for (const program of new Set(pinned.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) found.push(problem(DOCTOR_TEXT.programGone(file, program), reinstall, file));
	}
	const bundles = new Set(pinned.map((entry) => entry.bundle).filter((bundle) => existsSync(bundle)));
	for (const bundle of bundles) {
		const installed = packageAt(path.resolve(path.dirname(bundle), "..", ".."))?.version;
		if (installed !== undefined && installed !== version) {
			found.push(warn(DOCTOR_TEXT.otherVersion(file, installed, version), reinstall, file));
		}
	}
	const portable = entries.some((entry) => entry.form === "portable");
	const finds = portable ? portableFinds(context) : null;
	if (portable && finds === null) found.push(problem(DOCTOR_TEXT.noneFound(file), reinstall, file));
	if (scope === "project" && !projectTrusted(config, path.resolve(context.cwd))) {
		found.push(warn(DOCTOR_TEXT.projectUntrusted(path.resolve(context.cwd)), DOCTOR_TEXT.projectTrustFix, file));
	}
	const trust = trustOf(file, value, readHookStates(config), (handler) => parseOurCommand(handler.command) !== null);
	const with_ = (status: TrustStatus) => trust.filter((one) => one.status === status).map((one) => one.event);
	if (with_("untrusted").length > 0) {
		found.push(problem(DOCTOR_TEXT.untrusted(file, with_("untrusted")), DOCTOR_TEXT.trustFix, file));
	}
	if (with_("modified").length > 0) {
		found.push(problem(DOCTOR_TEXT.modified(file, with_("modified")), DOCTOR_TEXT.trustFix, file));
	}
	if (with_("disabled").length > 0) {
		found.push(warn(DOCTOR_TEXT.disabled(file, with_("disabled")), "turn them on again with /hooks in Codex", file));
	}
	if (found.length === 0) {
		const detail = portable
			? `portable, trusted; here they run ${finds ?? "nothing"}`
			: `pinned to boulder ${version}, trusted, ${entries.length} events`;
		found.push({ check: CHECK, level: "ok", message: DOCTOR_TEXT.ok(file, detail), fix: null, file });
	}
	return found;
}

async function readText(file: string): Promise<string | null> {
	try {
		return await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

function problem(message: string, fix: string, file?: string): DoctorFinding {
	return { check: CHECK, level: "problem", message, fix, ...(file ? { file } : {}) };
}

function warn(message: string, fix: string, file?: string): DoctorFinding {
	return { check: CHECK, level: "warn", message, fix, ...(file ? { file } : {}) };
}
