/**
 * `boulder install copilot` / `boulder uninstall copilot`: boulder's own
 * hooks file in one of Copilot CLI's hooks folders.
 *
 * - project: `<cwd>/.github/hooks/boulder.json` (committed, shared with the
 *   team): the portable commands, no path of this machine (`hook-config.ts`);
 *   installing them also links this copy of boulder for this user, unless the
 *   project has its own devDependency, which the commands prefer.
 * - user: `$COPILOT_HOME/hooks/boulder.json` (default `~/.copilot/hooks/`),
 *   every project: pinned to this node and this copy's hook program.
 *
 * Copilot runs every `*.json` of those folders, so boulder never edits
 * another file: its own is written whole, and taken away whole at uninstall
 * (with the folders the install made for it), which leaves the project byte
 * for byte as it was. Nothing is written when nothing changes; a file boulder
 * replaces is first copied to the user's state folder (`config-file.ts`). A
 * `boulder.json` that holds anyone else's hooks, or is not JSON, is refused,
 * never rewritten.
 */
import { existsSync } from "node:fs";
import { unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../../core/errors.js";
import {
	packageRoot,
	packageVersion,
	readConfigText,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
import { isRecord, messageOf } from "../shared/hook-input.js";
import { BOULDER_HOOK_LINK, linkForUser } from "../shared/hook-link.js";
import type { InstallReport } from "../shared/install-report.js";
import {
	HOOK_BUNDLE,
	HOOKS_FILE,
	type HookForm,
	hooksFileText,
	isPortable,
	type OurCommand,
	PORTABLE,
	parseOurCommand,
	REGISTRATIONS,
} from "./hook-config.js";
import { INSTALL_TEXT } from "./messages.js";

export const INSTALL_SCOPES = ["project", "user"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export interface InstallOptions {
	cwd: string;
	env: NodeJS.ProcessEnv;
	scope: InstallScope;
	/** The copy of boulder to install; defaults to this one. */
	root?: string;
	now?: () => Date;
}

export function hooksFile(scope: InstallScope, place: { cwd: string; env: NodeJS.ProcessEnv }): string {
	if (scope === "user") return path.join(copilotHome(place.env), "hooks", HOOKS_FILE);
	return path.join(place.cwd, ".github", "hooks", HOOKS_FILE);
}

/** `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: NodeJS.ProcessEnv): string {
	return env.COPILOT_HOME || path.join(env.HOME || os.homedir(), ".copilot");
}

export function formFor(scope: InstallScope, root: string): HookForm {
	if (scope === "project") return PORTABLE;
	return { node: process.execPath, bundle: path.join(root, HOOK_BUNDLE), version: packageVersion(root) };
}

export async function installCopilot(options: InstallOptions): Promise<{ report: InstallReport; notes: string[] }> {
	const root = options.root ?? packageRoot();
	const bundle = path.join(root, HOOK_BUNDLE);
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const form = formFor(options.scope, root);
	const file = hooksFile(options.scope, options);
	const original = await readConfigText(file);
	if (original !== null) ourEntries(original, file);
	const text = hooksFileText(form);
	const link = isPortable(form) ? await linkForUser(options, BOULDER_HOOK_LINK, bundle) : null;
	const notes = [
		isPortable(form) ? INSTALL_TEXT.portable(link, root) : INSTALL_TEXT.pinned(form.node, form.bundle),
		INSTALL_TEXT.autopilot,
	];
	if (original === text) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, text, options);
	const action = original === null ? "installed" : "updated";
	return { report: { file, action, backup, entries: REGISTRATIONS.length }, notes };
}

export async function uninstallCopilot(options: InstallOptions): Promise<InstallReport> {
	const file = hooksFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const entries = ourEntries(original, file).length;
	// The file is boulder's alone: it goes whole, with the folders the install made for it.
	const { removed, backup } = await writeOrRemoveConfig(file, original, original, true, options);
	if (!removed) await unlink(file);
	return { file, action: "removed", backup, entries };
}

/**
 * boulder's entries in the text of its hooks file. Contract: throws
 * `BoulderError("settings-invalid")` when the text is not JSON, or holds an
 * entry that is not boulder's.
 */
export function ourEntries(text: string, file: string): OurCommand[] {
	let value: unknown;
	try {
		value = JSON.parse(text.replace(/^\uFEFF/, ""));
	} catch (error) {
		throw new BoulderError("settings-invalid", INSTALL_TEXT.notJson(file, messageOf(error)));
	}
	const hooks = isRecord(value) ? value.hooks : undefined;
	if (!isRecord(value) || (hooks !== undefined && !isRecord(hooks))) {
		throw new BoulderError("settings-invalid", INSTALL_TEXT.notOurs(file));
	}
	const found: OurCommand[] = [];
	for (const [event, entries] of Object.entries(hooks ?? {})) {
		if (!Array.isArray(entries)) throw new BoulderError("settings-invalid", INSTALL_TEXT.notOurs(file));
		for (const entry of entries) {
			const ours = isRecord(entry) ? parseOurCommand(entry.bash) : null;
			if (ours === null) throw new BoulderError("settings-invalid", INSTALL_TEXT.notOurs(file));
			found.push({ ...ours, event });
		}
	}
	return found;
}
