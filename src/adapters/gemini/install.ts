/**
 * `boulder install gemini` / `boulder uninstall gemini`: boulder's hooks
 * merged into (or taken out of) one of Gemini CLI's settings files.
 *
 * - user:    `~/.gemini/settings.json`, or `$GEMINI_CLI_HOME/.gemini/settings.json` (the default)
 * - project: `<cwd>/.gemini/settings.json` (committed, shared with the team)
 *
 * `<cwd>` is where the command runs: run it where you start Gemini CLI.
 *
 * The project file is committed, so it gets the portable commands
 * (`hook-config.ts`): no path of this machine, whichever boulder a teammate
 * has installed. Installing them also links this copy of boulder for this
 * user (`$XDG_DATA_HOME/boulder/boulder-hook.cjs`), unless the project has its
 * own devDependency, which the commands prefer. User settings stay on this
 * machine and pin this node and this copy's hook program by absolute path.
 *
 * Gemini CLI reads its settings with comments allowed; the file is edited in
 * place (`shared/hooks-file.ts`), so comments, layout and the user's other
 * hooks keep every byte, and an install undone leaves the file as it was.
 * Backups go to the user's state folder (`shared/config-file.ts`).
 */
import { existsSync } from "node:fs";
import os from "node:os";
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
	BOULDER_HOOK_LINK,
	hookLinkFile as linkFileOf,
	linkForUser,
	hookLinkText as linkTextOf,
} from "../shared/hook-link.js";
import {
	type HooksDialect,
	ourEntries as ourEntriesOf,
	parseSettings,
	type SettingsEditResult,
	withOurHooks as withOurHooksOf,
	withoutOurHooks as withoutOurHooksOf,
} from "../shared/hooks-file.js";
import type { InstallReport } from "../shared/install-report.js";
import { plainValue } from "../shared/settings-json.js";
import {
	HOOK_BUNDLE,
	HOOK_LINK,
	type HookForm,
	type HookRegistration,
	hookGroup,
	isPortable,
	type OurCommand,
	PORTABLE,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { INSTALL_TEXT } from "./messages.js";

export const INSTALL_SCOPES = ["user", "project"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export interface InstallOptions extends Place {
	scope: InstallScope;
	/** The form to write; defaults to the scope's. */
	form?: HookForm;
	/** The copy of boulder the commands (or the user link) run; defaults to this one. */
	root?: string;
	now?: () => Date;
}

export function settingsFile(scope: InstallScope, place: Place): string {
	if (scope === "user") return path.join(geminiHome(place.env), ".gemini", "settings.json");
	return path.join(place.cwd, ".gemini", "settings.json");
}

/** Gemini CLI's home: `$GEMINI_CLI_HOME`, else the user's. */
export function geminiHome(env: NodeJS.ProcessEnv): string {
	return env.GEMINI_CLI_HOME || env.HOME || os.homedir();
}

export function hookLinkFile(env: NodeJS.ProcessEnv): string {
	return linkFileOf(env, HOOK_LINK);
}

/** What the user's link holds: a few lines that run one copy of boulder's hook program, or nothing when it is gone. */
export function hookLinkText(bundle: string): string {
	return linkTextOf(bundle, BOULDER_HOOK_LINK);
}

/** The form a scope gets: portable for the committed project file, pinned for the user's. */
export function formFor(scope: InstallScope, root: string = packageRoot()): HookForm {
	if (scope === "project") return PORTABLE;
	return { node: process.execPath, bundle: path.join(root, HOOK_BUNDLE), version: packageVersion(root) };
}

/** Gemini CLI's hooks, as the shared hooks-file editor reads and writes them: its settings allow comments. */
export const DIALECT: HooksDialect<HookForm, OurCommand, HookRegistration> = {
	registrations: REGISTRATIONS,
	group: hookGroup,
	parseOurs: parseOurCommand,
	syntax: "jsonc",
	text: INSTALL_TEXT,
};

export function withOurHooks(text: string, file: string, form: HookForm): SettingsEditResult {
	return withOurHooksOf(DIALECT, text, file, form);
}

export function withoutOurHooks(text: string, file: string): SettingsEditResult {
	return withoutOurHooksOf(DIALECT, text, file);
}

/** Our entries, read back from a settings value: one per command of ours, with its event and form. */
export function ourEntries(settings: unknown): OurCommand[] {
	return ourEntriesOf(DIALECT, settings);
}

export async function installGemini(options: InstallOptions): Promise<{ report: InstallReport; notes: string[] }> {
	const root = options.root ?? packageRoot();
	const form = options.form ?? formFor(options.scope, root);
	const bundle = isPortable(form) ? path.join(root, HOOK_BUNDLE) : form.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	const edit = withOurHooks(original ?? "", file, form);
	let link: string | null = null;
	if (isPortable(form)) link = await linkForUser(options, BOULDER_HOOK_LINK, bundle);
	const notes = isPortable(form) ? [INSTALL_TEXT.portable(link, root)] : [INSTALL_TEXT.pinned(form.node, form.bundle)];
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	return { report: { file, action: edit.removed > 0 ? "updated" : "installed", backup, entries: edit.added }, notes };
}

export async function uninstallGemini(options: InstallOptions): Promise<InstallReport> {
	const file = settingsFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurHooks(original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const empty = sameJson(plainValue(parseSettings(DIALECT, edit.text, file)), {});
	const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
	return { file, action: "removed", backup, entries: edit.removed };
}
