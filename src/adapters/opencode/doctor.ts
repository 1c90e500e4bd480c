/**
 * `boulder doctor`'s OpenCode check: where boulder's plugin is listed (this
 * project's `opencode.json(c)`, the user's), whether what the entry loads is
 * there, and whether it is this version of boulder:
 *
 * - a path entry: the built plugin it names, and the package around it;
 * - a package-name entry: OpenCode's package cache for `boulder-agent`, which
 *   `boulder install opencode --project` links to an installed boulder; when
 *   it is empty OpenCode asks the npm registry.
 *
 * A plugin dropped into `.opencode/plugins/` by hand is not visible here and
 * is not reported.
 *
 * Kilo Code's check is the same check with Kilo's files and words (`host.ts`).
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorContext, DoctorFinding } from "../../engine/doctor-types.js";
import { packageAt, packageVersion } from "../shared/config-file.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import { messageOf } from "./event-read.js";
import { OPENCODE_HOST, type PluginHost } from "./host.js";
import {
	cachedPackageFolder,
	existingConfigFiles,
	INSTALL_SCOPES,
	type InstallScope,
	ourEntries,
	readConfig,
} from "./install.js";

export type OpenCodeFinding = DoctorFinding;

export type OpenCodeCheckContext = Pick<DoctorContext, "cwd" | "env">;

/** The doctor check of one host: OpenCode's (`opencode`) or Kilo Code's (`kilo`). */
export function pluginDoctorCheck(host: PluginHost) {
	return {
		name: host.harness,
		run: async (context: OpenCodeCheckContext) => [
			...(await checkOpenCodePlugin(context, packageVersion(), host)),
			...harnessVersionFindings(host.harness, context.env),
		],
	};
}

export const openCodeDoctorCheck = pluginDoctorCheck(OPENCODE_HOST);

export async function checkOpenCodePlugin(
	context: OpenCodeCheckContext,
	version: string = packageVersion(),
	host: PluginHost = OPENCODE_HOST,
): Promise<OpenCodeFinding[]> {
	const check = host.harness;
	const { title } = host;
	const findings: OpenCodeFinding[] = [];
	const listedIn: string[] = [];
	for (const scope of INSTALL_SCOPES) {
		for (const file of existingConfigFiles(scope, { ...context, host })) {
			let config: unknown;
			try {
				config = readConfig(await readFile(file, "utf8"), file, host);
			} catch (error) {
				findings.push({
					check,
					level: "problem",
					message: `${file} cannot be read (${messageOf(error)}); ${title} will not start with it either`,
					fix: "fix the file, or move it away",
					file,
				});
				continue;
			}
			const entries = ourEntries(config);
			if (entries.length === 0) continue;
			listedIn.push(file);
			findings.push(...judge(scope, file, entries, version, context.env, host));
		}
	}
	if (listedIn.length === 0) {
		findings.push({
			check,
			level: "ok",
			message: `boulder's plugin is not in this project's or your user ${title} config`,
			fix: `\`boulder install ${host.harness}\` adds it, if you use ${title} here`,
		});
	}
	if (listedIn.length > 1) {
		findings.push({
			check,
			level: "warn",
			message: `boulder's plugin is listed more than once (${listedIn.join(", ")}): ${title} loads it twice; boulder acts once, but one entry is enough`,
			fix: `keep one: \`boulder uninstall ${host.harness} --project\` or \`--user\``,
		});
	}
	return findings;
}

function judge(
	scope: InstallScope,
	file: string,
	entries: ReturnType<typeof ourEntries>,
	version: string,
	env: NodeJS.ProcessEnv,
	host: PluginHost,
): OpenCodeFinding[] {
	const check = host.harness;
	const { title } = host;
	const reinstall = `\`boulder install ${host.harness} --${scope}\``;
	const found: OpenCodeFinding[] = [];
	const finding = (level: OpenCodeFinding["level"], message: string, fix: string | null): void => {
		found.push({ check, level, message, fix, file });
	};
	for (const { entry, file: plugin } of entries) {
		if (plugin === null) {
			const spec = String(Array.isArray(entry) ? entry[0] : entry);
			const cached = cachedPackage(cachedPackageFolder(env, spec, host), title);
			if (cached.kind === "none") {
				finding(
					"warn",
					`${file} loads boulder by package name (${spec}), but ${title}'s package cache has none (${cached.folder}): ${title} will try to download it from the npm registry`,
					`${reinstall} (links the cache to this copy of boulder)`,
				);
			} else if (cached.kind === "dangling") {
				finding(
					"problem",
					`${file} loads boulder by package name from ${title}'s cache, whose link ${cached.folder} points at ${cached.target}, which does not exist (moved or removed)`,
					reinstall,
				);
			} else if (cached.version !== version) {
				finding(
					"warn",
					`${file} loads boulder ${cached.version ?? "of an unknown version"} by package name from ${cached.where}; this is ${version}: two versions would share one state folder`,
					reinstall,
				);
			} else {
				finding("ok", `${file} loads boulder by package name (boulder ${version}, from ${cached.where})`, null);
			}
			continue;
		}
		if (!existsSync(plugin)) {
			finding(
				"problem",
				`${file} lists ${plugin}, which does not exist (moved or removed): ${title} cannot load boulder`,
				reinstall,
			);
			continue;
		}
		const installed = packageAt(path.resolve(path.dirname(plugin), "..", "..", ".."))?.version ?? null;
		if (installed !== version) {
			finding(
				"warn",
				`${file} loads boulder ${installed ?? "of an unknown version"} from ${plugin}; this is ${version}: two versions would share one state folder`,
				reinstall,
			);
			continue;
		}
		finding("ok", `plugin listed in ${file} (${scope}, boulder ${version})`, null);
	}
	return found;
}

type Cached =
	| { kind: "none"; folder: string }
	| { kind: "dangling"; folder: string; target: string }
	| { kind: "present"; folder: string; where: string; version: string | null };

/** What the host finds in its package cache for a package-name entry. */
function cachedPackage(folder: string, title: string): Cached {
	let target: string | null = null;
	try {
		if (lstatSync(folder).isSymbolicLink()) target = path.resolve(path.dirname(folder), readlinkSync(folder));
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none", folder };
		throw error;
	}
	if (target !== null && !existsSync(target)) return { kind: "dangling", folder, target };
	const where = target === null ? `${folder}, downloaded by ${title}` : `${target}, linked in ${folder}`;
	return { kind: "present", folder, where, version: packageAt(folder)?.version ?? null };
}
