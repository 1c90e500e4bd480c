/**
 * `boulder install qwen` / `boulder uninstall qwen`: boulder's hooks merged
 * into (or taken out of) one of Qwen Code's settings files.
 *
 * - project: `<cwd>/.qwen/settings.json` (committed, shared with the team):
 *   the portable commands, no path of this machine;
 * - user: `~/.qwen/settings.json`, or `$QWEN_HOME/settings.json`: pinned to
 *   this node and this copy of boulder.
 *
 * The edit is the shared one (`../shared/hooks-file.ts`): the user's other
 * settings and hooks keep every byte, installing again replaces boulder's
 * entries, nothing is written when nothing changes, the old file is first
 * copied to the user's state folder, and a file the installer created goes
 * again at uninstall when nothing else was put in it. Qwen Code stamps the
 * settings files it reads with `"$version"`; a file boulder created holds it
 * from the start, so that stamp alone never keeps the file.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { BoulderError } from "../../core/errors.js";
import {
	packageRoot,
	packageVersion,
	readConfigText,
	sameJson,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
import {
	type HooksDialect,
	hooksObject,
	ourEntries,
	parseSettings,
	type SettingsEditResult,
	withOurHooks,
	withoutOurHooks,
} from "../shared/hooks-file.js";
import type { InstallReport } from "../shared/install-report.js";
import { plainValue } from "../shared/settings-json.js";
import { effectiveCap, MAX_CAP, qwenHome } from "./cap.js";
import {
	HOOK_BUNDLE,
	type HookForm,
	type HookProgram,
	type HookRegistration,
	isPortable,
	matcherGroup,
	type OurCommand,
	PORTABLE,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { CAP_TEXT, INSTALL_TEXT } from "./messages.js";
import { withRaisedCap } from "./raise-cap.js";

export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

/** The settings version Qwen Code 0.24 stamps into the files it reads. */
const SETTINGS_VERSION = { $version: 4 };

/** Qwen Code's hooks, as the shared hooks-file editor reads and writes them. */
export const QWEN_SETTINGS: HooksDialect<HookForm, OurCommand, HookRegistration> = {
	registrations: REGISTRATIONS,
	group: matcherGroup,
	parseOurs: parseOurCommand,
	text: INSTALL_TEXT,
};

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export function settingsFile(scope: InstallScope, place: Place): string {
	if (scope === "user") return path.join(qwenHome(place.env), "settings.json");
	return path.join(place.cwd, ".qwen", "settings.json");
}

export function thisProgram(root: string = packageRoot()): HookProgram {
	return { node: process.execPath, bundle: path.join(root, HOOK_BUNDLE), version: packageVersion(root) };
}

export function formFor(scope: InstallScope, root: string = packageRoot()): HookForm {
	return scope === "project" ? PORTABLE : thisProgram(root);
}

export interface InstallOptions extends Place {
	scope: InstallScope;
	program?: HookForm;
	root?: string;
	/** Also set `stopHookBlockingCap` to its maximum in the same settings file (`--raise-cap`). */
	raiseCap?: boolean;
}

export async function installQwen(options: InstallOptions): Promise<{ report: InstallReport; notes: string[] }> {
	const root = options.root ?? packageRoot();
	const program = options.program ?? formFor(options.scope, root);
	const bundle = isPortable(program) ? path.join(root, HOOK_BUNDLE) : program.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	const hooks = withOurQwenHooks(original ?? "", file, program);
	const raised = options.raiseCap ? withRaisedCap(hooks.text, file) : { text: hooks.text, changed: false };
	const edit = { ...hooks, text: raised.text, changed: hooks.changed || raised.changed };
	const notes = [
		isPortable(program) ? INSTALL_TEXT.portable : INSTALL_TEXT.pinned(program.node, program.bundle),
		await capNote(options, file, raised.changed),
	];
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	const action = edit.removed > 0 ? "updated" : "installed";
	return { report: { file, action, backup, entries: edit.added }, notes };
}

/** What the install says about Qwen Code's continuation cap: what it set, or where it stands and how to raise it. Never silent. */
async function capNote(options: InstallOptions, file: string, raised: boolean): Promise<string> {
	if (options.raiseCap) return raised ? CAP_TEXT.set(file) : CAP_TEXT.alreadySet(file);
	const cap = await effectiveCap(options.env, options.cwd);
	return cap >= MAX_CAP ? CAP_TEXT.ok(cap) : CAP_TEXT.offer(cap, options.scope);
}

export async function uninstallQwen(options: InstallOptions): Promise<InstallReport> {
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurHooks(QWEN_SETTINGS, original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const { $version: _, ...rest } = plainValue(parseSettings(QWEN_SETTINGS, edit.text, file)) as Record<string, unknown>;
	const { backup } = await writeOrRemoveConfig(file, original, edit.text, sameJson(rest, {}), options);
	return { file, action: "removed", backup, entries: edit.removed };
}

/**
 * Pure: the settings text with exactly boulder's Qwen Code hooks for `form`.
 * A new (or empty) file starts with Qwen Code's settings version, as Qwen
 * Code would write it.
 */
export function withOurQwenHooks(text: string, file: string, form: HookForm): SettingsEditResult {
	if (text.trim() === "") {
		const fresh = { ...SETTINGS_VERSION, hooks: hooksObject(QWEN_SETTINGS, form) };
		return { text: `${JSON.stringify(fresh, null, 2)}\n`, changed: true, added: REGISTRATIONS.length, removed: 0 };
	}
	return withOurHooks(QWEN_SETTINGS, text, file, form);
}

/** Pure: the settings text without boulder's Qwen Code hooks; everything else byte for byte. */
export function withoutOurQwenHooks(text: string, file: string): SettingsEditResult {
	return withoutOurHooks(QWEN_SETTINGS, text, file);
}

export function ourQwenEntries(settings: unknown): OurCommand[] {
	return ourEntries(QWEN_SETTINGS, settings);
}
