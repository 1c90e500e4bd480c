/**
 * `boulder doctor`'s Claude Code check: where boulder's hooks are installed,
 * whether they come from this version of boulder and cover every event, and
 * whether the programs they run still exist. Hooks installed as a plugin are
 * not visible from here and are not reported.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { REGISTRATIONS } from "./hook-config.js";
import { messageOf } from "./hook-input.js";
import { INSTALL_SCOPES, type InstallScope, ourEntries, settingsFile, thisProgram } from "./install.js";

export type ClaudeCodeFinding = DoctorFinding;

export type ClaudeCodeCheckContext = Pick<DoctorContext, "cwd" | "env">;

const CHECK = "claude-code";

export const claudeCodeDoctorCheck = {
	name: CHECK,
	run: (context: ClaudeCodeCheckContext) => checkClaudeCodeHooks(context),
};

export async function checkClaudeCodeHooks(
	context: ClaudeCodeCheckContext,
	version: string = thisProgram().version,
): Promise<ClaudeCodeFinding[]> {
	const findings: ClaudeCodeFinding[] = [];
	const installedIn: InstallScope[] = [];
	for (const scope of INSTALL_SCOPES) {
		const file = settingsFile(scope, context);
		let settings: unknown;
		try {
			settings = JSON.parse(await readFile(file, "utf8"));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
			findings.push({
				check: CHECK,
				level: "problem",
				message: `${file} cannot be read as JSON (${messageOf(error)}); Claude Code will not run its hooks either`,
				fix: "fix the file, or move it away",
				file,
			});
			continue;
		}
		const entries = ourEntries(settings);
		if (entries.length === 0) continue;
		installedIn.push(scope);
		findings.push(...judge(scope, file, entries, version));
	}
	if (installedIn.length === 0) {
		findings.push({
			check: CHECK,
			level: "ok",
			message:
				"boulder's Claude Code hooks are not in this project's or your user settings (a plugin install is not visible here)",
			fix: "`boulder install claude-code` adds them, if you use Claude Code here",
		});
	}
	if (installedIn.length > 1) {
		findings.push({
			check: CHECK,
			level: "warn",
			message: `boulder's hooks are installed in more than one settings file (${installedIn.join(", ")}): every event runs boulder more than once`,
			fix: `keep one: \`boulder uninstall claude-code --${installedIn[installedIn.length - 1]}\``,
		});
	}
	return findings;
}

function judge(
	scope: InstallScope,
	file: string,
	entries: ReturnType<typeof ourEntries>,
	version: string,
): ClaudeCodeFinding[] {
	const reinstall = `\`boulder install claude-code --${scope}\``;
	const found: ClaudeCodeFinding[] = [];
	const versions = [...new Set(entries.map((entry) => entry.version))];
	const missing = REGISTRATIONS.filter(
		(registration) => !entries.some((entry) => entry.event === registration.event),
	).map((registration) => registration.event);
	for (const program of new Set(entries.flatMap((entry) => [entry.node, entry.bundle]))) {
		if (!existsSync(program)) {
			found.push({
				check: CHECK,
				level: "problem",
				message: `the hooks in ${file} run ${program}, which does not exist: they fail and boulder does nothing`,
				fix: reinstall,
				file,
			});
		}
	}
	if (versions.some((installed) => installed !== version)) {
		found.push({
			check: CHECK,
			level: "warn",
			message: `the hooks in ${file} were installed by boulder ${versions.join(", ")}; this is ${version}`,
			fix: reinstall,
			file,
		});
	}
	if (missing.length > 0) {
		found.push({
			check: CHECK,
			level: "warn",
			message: `the hooks in ${file} miss ${missing.join(", ")}`,
			fix: reinstall,
			file,
		});
	}
	if (found.length === 0) {
		found.push({
			check: CHECK,
			level: "ok",
			message: `hooks installed in ${file} (${scope}, boulder ${version}, ${entries.length} events)`,
			fix: null,
			file,
		});
	}
	return found;
}
