/**
 * Factory Droid as the adapter registry sees it: the installer, the doctor
 * check and the hook entry, built from the shared command-hook pieces with
 * Droid's parameters (the in-place hooks editor `shared/hooks-file.ts`, the
 * two command forms of `shared/hook-form.ts` and `shared/portable-command.ts`,
 * the installer's and doctor's words); the hook itself is `dialect.ts`.
 *
 * Where: Droid reads a scope's `.factory/hooks.json` (`<project>/` or `~/`),
 * whose top level is the event map, and only when there is none that scope's
 * `settings.json` `hooks` (`docs/droid-notes.md`). So boulder writes
 * `hooks.json`, unless the scope keeps its hooks in `settings.json` and has no
 * `hooks.json` (creating one would silence them). The project form names no
 * path of this machine; the user form is pinned to this node and this copy.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { BoulderError } from "../../core/errors.js";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { MISSING_EVENT_SEVERITY, missingRegistrations } from "../command-hook/doctor.js";
import { hookEntry } from "../command-hook/entry.js";
import type { HookRegistration } from "../command-hook/registrations.js";
import {
	packageRoot,
	packageVersion,
	readConfigText,
	sameJson,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
import { type OurCommand, ourCommandReader } from "../shared/hook-command.js";
import * as form from "../shared/hook-form.js";
import { type HooksDialect, ourEntries, parseSettings, withOurHooks, withoutOurHooks } from "../shared/hooks-file.js";
import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";
import type { InstallReport } from "../shared/install-report.js";
import { scopesHolding } from "../shared/installed-scopes.js";
import { portableCommand } from "../shared/portable-command.js";
import { plainValue } from "../shared/settings-json.js";
import { harnessVersionFindings } from "../shared/tested-versions.js";
import type { HarnessAdapter } from "../types.js";
import { EVENTS, HARNESS, normalizeDroidTodos, REGISTRATIONS } from "./dialect.js";

const TITLE = "Factory Droid";
const SCOPES = ["project", "user"] as const;
type Scope = (typeof SCOPES)[number];
type Place = { cwd: string; env: NodeJS.ProcessEnv };

export const INSTALL_TEXT = {
	...hooksInstallText(TITLE, { holds: "a JSON object" }),
	portable: portableHooksNote({ onPath: form.BOULDER_HOOK_BIN, notice: false }),
	noCap: `${TITLE} has no limit of its own on continuations: boulder's budgets and stagnation guard are what bound a run.`,
};

function command(program: form.HookForm, event: string): string {
	const args = form.hookArguments(HARNESS, event);
	if (!form.isPortable(program)) return form.pinnedCommand(program, args);
	const bin = form.BOULDER_HOOK_BIN;
	return portableCommand({
		projectDirVar: "FACTORY_PROJECT_DIR",
		bundle: form.BOULDER_HOOK_BUNDLE,
		link: null,
		bin,
		args,
		otherwise: "exit 0",
	});
}

const words = {
	harness: HARNESS,
	marker: form.HOOK_MARKER,
	portableTag: form.PORTABLE_TAG,
	bin: form.BOULDER_HOOK_BIN,
};
export const DROID_HOOKS: HooksDialect<form.HookForm, OurCommand, HookRegistration> = {
	registrations: REGISTRATIONS,
	group: (program, registration) =>
		form.groupedHook(
			{ type: "command", command: command(program, registration.event), timeout: registration.timeout },
			registration,
		),
	parseOurs: ourCommandReader(words),
	text: INSTALL_TEXT,
};

/**
 * `hooks.json` holds the event map at its top level; the shared editor edits
 * a `hooks` member. It edits the file seen as `{"hooks":<file>}`, and the
 * file is what is between: every byte outside boulder's entries stays.
 */
const WRAP = '{"hooks":';
function edited(file: string, text: string, edit: (wrapped: string) => { text: string; removed: number }) {
	if (path.basename(file) !== "hooks.json") return edit(text);
	const result = edit(`${WRAP}${text.trim() === "" ? "{}" : text}}`);
	const inner = result.text.startsWith(WRAP) ? result.text.slice(WRAP.length, -1) : "{}\n";
	return { ...result, text: text.trim() === "" ? `${JSON.stringify(JSON.parse(inner), null, 2)}\n` : inner };
}

/** The file boulder's hooks go in for a scope's folder (see the file's comment). */
export async function hooksFileIn(folder: string): Promise<string> {
	const hooksJson = path.join(folder, "hooks.json");
	const settings = path.join(folder, "settings.json");
	if (existsSync(hooksJson)) return hooksJson;
	const text = await readConfigText(settings);
	const value = text === null || text.trim() === "" ? null : plainValue(parseSettings(DROID_HOOKS, text, settings));
	return value !== null && typeof value === "object" && "hooks" in value ? settings : hooksJson;
}

export async function installDroid(scope: Scope, folder: string, place: Place, root = packageRoot()) {
	const bundle = path.join(root, form.BOULDER_HOOK_BUNDLE);
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const program: form.HookForm =
		scope === "project" ? form.PORTABLE : { node: process.execPath, bundle, version: packageVersion(root) };
	const file = await hooksFileIn(folder);
	const original = await readConfigText(file);
	const edit = edited(file, original ?? "", (text) => withOurHooks(DROID_HOOKS, text, file, program));
	const notes = [
		form.isPortable(program) ? INSTALL_TEXT.portable : INSTALL_TEXT.pinned(program.node, bundle),
		INSTALL_TEXT.noCap,
	];
	if (edit.text === (original ?? ""))
		return { report: { file, action: "unchanged", backup: null, entries: 0 } as InstallReport, notes };
	const backup = await writeConfigText(file, original, edit.text, place);
	const action = edit.removed > 0 ? "updated" : "installed";
	return { report: { file, action, backup, entries: REGISTRATIONS.length } as InstallReport, notes };
}

export async function uninstallDroid(folder: string, place: Place): Promise<InstallReport> {
	for (const file of [path.join(folder, "hooks.json"), path.join(folder, "settings.json")]) {
		const original = await readConfigText(file);
		if (original === null) continue;
		const edit = edited(file, original, (text) => withoutOurHooks(DROID_HOOKS, text, file));
		if (edit.removed === 0) continue;
		const empty = sameJson(plainValue(parseSettings(DROID_HOOKS, edit.text, file)), {});
		const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, place);
		return { file, action: "removed", backup, entries: edit.removed };
	}
	return { file: path.join(folder, "hooks.json"), action: "absent", backup: null, entries: 0 };
}

function oursIn(file: string, text: string) {
	const value = plainValue(
		parseSettings(DROID_HOOKS, path.basename(file) === "hooks.json" ? `${WRAP}${text}}` : text, file),
	);
	return ourEntries(DROID_HOOKS, value);
}

const DOCTOR_TEXT = hooksDoctorText(TITLE);

async function droidDoctor(context: Place): Promise<DoctorFinding[]> {
	const findings: DoctorFinding[] = [];
	const say = (level: DoctorFinding["level"], message: string, fix: string | null, file?: string) =>
		findings.push({ check: HARNESS, level, message, fix, ...(file ? { file } : {}) });
	const places: string[] = [];
	for (const scope of SCOPES) {
		const folder = folderOf(scope, context);
		for (const file of [path.join(folder, "hooks.json"), path.join(folder, "settings.json")]) {
			const text = await readConfigText(file).catch(() => null);
			if (text === null || text.trim() === "") continue;
			let entries: ReturnType<typeof oursIn>;
			try {
				entries = oursIn(file, text);
			} catch (error) {
				say("problem", `${file} cannot be read (${(error as Error).message})`, DOCTOR_TEXT.unreadableFix, file);
				continue;
			}
			if (entries.length === 0) continue;
			const reinstall = `\`boulder install droid --${scope}\``;
			if (path.basename(file) === "settings.json" && existsSync(path.join(folder, "hooks.json"))) {
				say(
					"problem",
					`${TITLE} reads ${path.join(folder, "hooks.json")}, not the hooks in ${file}: boulder's do not run`,
					`\`boulder uninstall droid --${scope}\`, then ${reinstall}`,
					file,
				);
				continue;
			}
			places.push(file);
			const missing = missingRegistrations(REGISTRATIONS, entries);
			if (missing.length > 0) say(MISSING_EVENT_SEVERITY, DOCTOR_TEXT.missingEvents(file, missing), reinstall, file);
			for (const entry of entries) {
				if (entry.form === "pinned" && !existsSync(entry.bundle))
					say("problem", DOCTOR_TEXT.programGone(file, entry.bundle), reinstall, file);
			}
			if (missing.length === 0) say("ok", `hooks installed in ${file} (${entries.length} events)`, null, file);
		}
	}
	if (places.length === 0)
		say(
			"ok",
			`boulder's ${TITLE} hooks are not in this project's or your user hooks`,
			"`boulder install droid`, if you use Factory Droid here",
		);
	if (places.length > 1) say("warn", DOCTOR_TEXT.twice(places), "keep one: `boulder uninstall droid --user`");
	return [...findings, ...harnessVersionFindings(HARNESS, context.env)];
}

function folderOf(scope: Scope, place: Place): string {
	return scope === "user" ? path.join(place.env.HOME ?? "", ".factory") : path.join(place.cwd, ".factory");
}

export const droidAdapter: HarnessAdapter = {
	name: HARNESS,
	title: TITLE,
	program: "droid",
	scopes: [
		{
			name: "project",
			help: "this project's .factory/hooks.json, to commit; no path of this machine in it (the default)",
		},
		{ name: "user", help: "your user hooks (~/.factory/hooks.json): every project, pinned to this copy" },
	],
	defaultScope: "project",
	async install(place) {
		const scope = place.scope as Scope;
		return { ...(await installDroid(scope, folderOf(scope, place), place)), text: INSTALL_TEXT };
	},
	async uninstall(place) {
		return {
			report: await uninstallDroid(folderOf(place.scope as Scope, place), place),
			text: INSTALL_TEXT,
			notes: [],
		};
	},
	installedScopes: (place) =>
		scopesHolding(
			SCOPES,
			(scope) => ["hooks.json", "settings.json"].map((name) => path.join(folderOf(scope, place), name)),
			(text, file) => oursIn(file, text).length > 0,
		),
	doctor: { name: HARNESS, run: droidDoctor },
	hook: hookEntry(EVENTS, () => import("./dialect.js")),
	normalizeTodos: normalizeDroidTodos,
};
