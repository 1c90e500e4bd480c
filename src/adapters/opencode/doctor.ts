/**
 * `boulder doctor`'s OpenCode check: where boulder's plugin is listed (this
 * project's `opencode.json(c)`, the user's), whether the file it names exists,
 * and whether it is this version of boulder. A plugin dropped into
 * `.opencode/plugins/` by hand is not visible here and is not reported.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { packageVersion } from "../shared/config-file.js";
import { messageOf } from "./event-read.js";
import { existingConfigFiles, INSTALL_SCOPES, type InstallScope, ourEntries, readConfig } from "./install.js";

export type OpenCodeFinding = DoctorFinding;

export type OpenCodeCheckContext = Pick<DoctorContext, "cwd" | "env">;

const CHECK = "opencode";

export const openCodeDoctorCheck = {
	name: CHECK,
	run: (context: OpenCodeCheckContext) => checkOpenCodePlugin(context),
};

export async function checkOpenCodePlugin(
	context: OpenCodeCheckContext,
	version: string = packageVersion(),
): Promise<OpenCodeFinding[]> {
	const findings: OpenCodeFinding[] = [];
	const listedIn: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		for (const file of existingConfigFiles(scope, context)) {
			let config: unknown;
			try {
				config = readConfig(await readFile(file, "utf8"), file);
			} catch (error) {
				findings.push({
					check: CHECK,
					level: "problem",
					message: `${file} cannot be read (${messageOf(error)}); OpenCode will not start with it either`,
					fix: "fix the file, or move it away",
					file,
				});
				continue;
			}
			const entries = ourEntries(config);
			if (entries.length === 0) continue;
			listedIn.push(file);
			findings.push(...judge(scope, file, entries, version));
		}
	}
	if (listedIn.length === 0) {
		findings.push({
			check: CHECK,
			level: "ok",
			message: "boulder's plugin is not in this project's or your user OpenCode config",
			fix: "`boulder install opencode` adds it, if you use OpenCode here",
		});
	}
	if (listedIn.length > 1) {
		findings.push({
			check: CHECK,
			level: "warn",
			message: `boulder's plugin is listed more than once (${listedIn.join(", ")}): OpenCode loads it twice; boulder acts once, but one entry is enough`,
			fix: "keep one: `boulder uninstall opencode --project` or `--user`",
		});
	}
	return findings;
}

function judge(
	scope: InstallScope,
	file: string,
	entries: ReturnType<typeof ourEntries>,
	version: string,
): OpenCodeFinding[] {
	const reinstall = `\`boulder install opencode --${scope}\``;
	const found: OpenCodeFinding[] = [];
	for (const { entry, file: plugin } of entries) {
		if (plugin === null) {
			found.push({
				check: CHECK,
				level: "ok",
				message: `${file} loads boulder by package name (${String(Array.isArray(entry) ? entry[0] : entry)}), from OpenCode's package cache; its version is not visible here`,
				fix: null,
				file,
			});
			continue;
		}
		if (!existsSync(plugin)) {
			found.push({
				check: CHECK,
				level: "problem",
				message: `${file} lists ${plugin}, which does not exist: OpenCode cannot load boulder`,
				fix: reinstall,
				file,
			});
			continue;
		}
		const installed = versionAt(plugin);
		if (installed !== version) {
			found.push({
				check: CHECK,
				level: "warn",
				message: `${file} loads boulder ${installed ?? "of an unknown version"} from ${plugin}; this is ${version}`,
				fix: reinstall,
				file,
			});
			continue;
		}
		found.push({
			check: CHECK,
			level: "ok",
			message: `plugin listed in ${file} (${scope}, boulder ${version})`,
			fix: null,
			file,
		});
	}
	return found;
}

/** The version in the package.json of the boulder copy a plugin file belongs to (`<root>/dist/adapters/opencode/plugin.js`). */
function versionAt(plugin: string): string | null {
	const manifest = path.join(path.dirname(plugin), "..", "..", "..", "package.json");
	let text: string;
	try {
		text = readFileSync(manifest, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
	let value: { name?: unknown; version?: unknown };
	try {
		value = JSON.parse(text) as typeof value;
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
	return value.name === "boulder-agent" && typeof value.version === "string" ? value.version : null;
}
