/**
 * `boulder doctor`'s pi check: where boulder's extension is listed (this
 * project's `.pi/settings.json`, the user's), whether the file the entry
 * names is there, and whether it is this version of boulder. An extension
 * loaded with `pi -e` or dropped into an `extensions/` folder by hand is not
 * visible here and is not reported.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { messageOf } from "../shared/loose.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import {
	entryPath,
	INSTALL_SCOPES,
	LINK_ENTRY,
	linkTarget,
	ourEntries,
	readSettings,
	settingsFile,
} from "./install.js";
import { TRUST_TEXT } from "./messages.js";
import { projectTrust } from "./trust.js";

const CHECK = "pi";

export type PiCheckContext = Pick<DoctorContext, "cwd" | "env">;

export const piDoctorCheck = {
	name: CHECK,
	run: async (context: PiCheckContext) => [
		...(await checkPiExtension(context)),
		...harnessVersionFindings("pi", context.env),
	],
};

export async function checkPiExtension(
	context: PiCheckContext,
	version: string = packageVersion(),
): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const listedIn: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		const file = settingsFile(scope, context);
		if (!existsSync(file)) continue;
		const reinstall = `\`boulder install pi --${scope}\``;
		let settings: unknown;
		try {
			settings = readSettings(await readFile(file, "utf8"), file);
		} catch (error) {
			findings.push({
				check: CHECK,
				level: "problem",
				message: `${file} cannot be read (${messageOf(error)}); pi will not use it either`,
				fix: "fix the file, or move it away",
				file,
			});
			continue;
		}
		const entries = ourEntries(settings);
		if (entries.length === 0) continue;
		listedIn.push(file);
		if (scope === "project") findings.push(await trustFinding(context));
		for (const entry of entries) {
			const listed = entryPath(entry, file, context.env);
			if (!existsSync(listed)) {
				findings.push({
					check: CHECK,
					level: "problem",
					message:
						entry === LINK_ENTRY
							? `${file} lists ${entry}, the per-user link to boulder, which is not there for you: pi cannot load boulder`
							: `${file} lists ${entry}, which does not exist (moved or removed): pi cannot load boulder`,
					fix: reinstall,
					file,
				});
				continue;
			}
			const extension = entry === LINK_ENTRY ? linkTarget(await readFile(listed, "utf8")) : listed;
			if (extension === null || !existsSync(extension)) {
				findings.push({
					check: CHECK,
					level: "problem",
					message: `${listed} (the link ${file} lists) loads ${extension ?? "nothing boulder wrote"}, which does not exist: pi cannot load boulder`,
					fix: reinstall,
					file,
				});
				continue;
			}
			if (scope === "project" && path.isAbsolute(entry)) {
				findings.push({
					check: CHECK,
					level: "warn",
					message: `${file} is committed with the project but names a path of this machine (${entry}): a teammate's pi cannot load it`,
					fix: reinstall,
					file,
				});
				continue;
			}
			const installed = packageAt(path.resolve(path.dirname(extension), "..", "..", ".."))?.version ?? null;
			if (installed !== version) {
				findings.push({
					check: CHECK,
					level: "warn",
					message: `${file} loads boulder ${installed ?? "of an unknown version"} from ${extension}; this is ${version}: two versions would share one state folder`,
					fix: reinstall,
					file,
				});
				continue;
			}
			findings.push({
				check: CHECK,
				level: "ok",
				message: `extension listed in ${file} (${scope}, boulder ${version})`,
				fix: null,
				file,
			});
		}
	}
	if (listedIn.length === 0) {
		findings.push({
			check: CHECK,
			level: "ok",
			message: "boulder's extension is not in this project's or your user pi settings",
			fix: "`boulder install pi` adds it, if you use pi here",
		});
	}
	if (listedIn.length > 1 || findings.filter((finding) => finding.level === "ok" && finding.file).length > 1) {
		findings.push({
			check: CHECK,
			level: "warn",
			message: `boulder's extension is listed more than once (${listedIn.join(", ")}): pi loads both copies, and both register the todo tools and /boulder`,
			fix: "keep one: `boulder uninstall pi --project` or `--user`",
		});
	}
	return findings;
}

/** Whether pi will load the project's settings at all: headless, an untrusted project's are skipped silently. */
async function trustFinding(context: PiCheckContext): Promise<DoctorFinding> {
	const trust = await projectTrust(context.cwd, context.env);
	if (trust.kind === "trusted") return { check: CHECK, level: "ok", message: TRUST_TEXT.trusted(trust.how), fix: null };
	if (trust.kind === "distrusted") {
		return {
			check: CHECK,
			level: "problem",
			message: TRUST_TEXT.distrusted(trust.how),
			fix: TRUST_TEXT.distrustedFix,
		};
	}
	return { check: CHECK, level: "warn", message: TRUST_TEXT.unsaved(trust.problem), fix: TRUST_TEXT.unsavedFix };
}
