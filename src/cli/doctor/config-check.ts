/**
 * The config check: every config layer (the user's file, the project's file)
 * on its own, so a bad user file does not hide a bad project file. Each issue
 * names the file, the key, the value and what was expected.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { configIssues, formatConfigValue } from "../../core/config.js";
import { PROJECT_CONFIG_FILE, userConfigPath } from "../../engine/config-loader.js";
import type { DoctorCheck, DoctorFinding } from "../../engine/doctor-types.js";

const CHECK = "config";

export const configCheck: DoctorCheck = {
	name: CHECK,
	async run(context) {
		const files = [userConfigPath(context.env), path.join(context.worktree, PROJECT_CONFIG_FILE)];
		const found: string[] = [];
		const findings: DoctorFinding[] = [];
		for (const file of files) {
			const layer = await readLayer(file);
			if (layer.kind === "missing") continue;
			found.push(file);
			if (layer.kind === "bad") {
				findings.push({ check: CHECK, level: "problem", message: `${file} ${layer.message}`, fix: layer.fix, file });
				continue;
			}
			for (const issue of configIssues(layer.value)) {
				const value = issue.value === undefined ? "" : ` is ${formatConfigValue(issue.value)}`;
				findings.push({
					check: CHECK,
					level: "problem",
					message: `${file}: ${issue.key}${value}; expected: ${issue.expected}`,
					fix: `fix or remove \`${issue.key}\` in ${file} (\`boulder config --json-schema\` lists every key)`,
					file,
					key: issue.key,
				});
			}
		}
		if (findings.length > 0) return findings;
		const message = found.length === 0 ? "no config files; the defaults apply" : `valid: ${found.join(", ")}`;
		return [{ check: CHECK, level: "ok", message, fix: null }];
	},
};

type Layer = { kind: "missing" } | { kind: "ok"; value: unknown } | { kind: "bad"; message: string; fix: string };

async function readLayer(file: string): Promise<Layer> {
	let text: string;
	try {
		text = await readFile(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
		return {
			kind: "bad",
			message: `cannot be read: ${(error as Error).message}`,
			fix: "make it readable, or remove it",
		};
	}
	try {
		const value: unknown = JSON.parse(text);
		if (value === null || typeof value !== "object" || Array.isArray(value)) {
			return { kind: "bad", message: "must hold a JSON object", fix: 'write it as { "key": value, … }' };
		}
		return { kind: "ok", value };
	} catch (error) {
		return {
			kind: "bad",
			message: `is not valid JSON: ${(error as Error).message}`,
			fix: "fix the JSON syntax (a trailing comma or a missing quote, most often)",
		};
	}
}
