/**
 * `boulder install codex` / `boulder uninstall codex`: boulder's hooks merged
 * into (or taken out of) one of Codex's hooks files.
 *
 * - user:    `$CODEX_HOME/hooks.json` (default `~/.codex`): every project, just you
 * - project: `<cwd>/.codex/hooks.json` (committed, shared with the team)
 *
 * The project file gets the portable commands (`hook-config.ts`): no path of
 * this machine. The user file pins this node and this copy's hook program.
 *
 * The file is edited in place (`shared/hooks-file.ts`), with the same
 * guarantees as every installer: the user's other hooks and layout keep
 * every byte, nothing is written when nothing changes, the old file is first
 * copied to the user's state folder, a file the installer created goes again
 * at uninstall, and a file that is not valid JSON is refused, never rewritten.
 *
 * Installing does not trust the hooks: that is the user's review in Codex,
 * and the install says how (`TRUST_NOTE`).
 */
import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BoulderError } from "../../core/errors.js";
import {
	PACKAGE_NAME,
	packageRoot,
	packageVersion,
	readConfigText,
	sameJson,
	writeConfigText,
	writeOrRemoveConfig,
} from "../shared/config-file.js";
import {
	type HooksDialect,
	ourEntries as ourEntriesOf,
	parseSettings,
	withOurHooks as withOurHooksOf,
	withoutOurHooks as withoutOurHooksOf,
} from "../shared/hooks-file.js";
import type { InstallReport } from "../shared/install-report.js";
import { plainValue } from "../shared/settings-json.js";
import {
	HOOK_BIN,
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
import { INSTALL_TEXT, PROJECT_TRUST_NOTE, TRUST_NOTE } from "./messages.js";

export const INSTALL_SCOPES = ["user", "project"] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

export interface Place {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export interface InstallOptions extends Place {
	scope: InstallScope;
	/** The form to write; defaults to the scope's. */
	program?: HookForm;
	root?: string;
	now?: () => Date;
}

/** Codex's hooks, as the shared hooks-file editor reads and writes them. */
export const DIALECT: HooksDialect<HookForm, OurCommand, HookRegistration> = {
	registrations: REGISTRATIONS,
	group: matcherGroup,
	parseOurs: parseOurCommand,
	text: INSTALL_TEXT,
};

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv): string {
	return env.CODEX_HOME || path.join(env.HOME || os.homedir(), ".codex");
}

export function hooksFile(scope: InstallScope, place: Place): string {
	if (scope === "user") return path.join(codexHome(place.env), "hooks.json");
	return path.join(place.cwd, ".codex", "hooks.json");
}

export function thisProgram(root: string = packageRoot()): HookProgram {
	return { node: process.execPath, bundle: path.join(root, HOOK_BUNDLE), version: packageVersion(root) };
}

export function formFor(scope: InstallScope, root: string = packageRoot()): HookForm {
	return scope === "project" ? PORTABLE : thisProgram(root);
}

export async function installCodex(options: InstallOptions): Promise<{ report: InstallReport; notes: string[] }> {
	const root = options.root ?? packageRoot();
	const program = options.program ?? formFor(options.scope, root);
	const bundle = isPortable(program) ? path.join(root, HOOK_BUNDLE) : program.bundle;
	if (!existsSync(bundle)) throw new BoulderError("not-found", INSTALL_TEXT.noBundle(bundle));
	const file = hooksFile(options.scope, options);
	const original = await readConfigText(file);
	const edit = withOurHooksOf(DIALECT, original ?? "", file, program);
	const notes = isPortable(program)
		? [INSTALL_TEXT.portable(portableFinds(options)), PROJECT_TRUST_NOTE, TRUST_NOTE]
		: [INSTALL_TEXT.pinned(program.node, program.bundle), TRUST_NOTE];
	if (!edit.changed) return { report: { file, action: "unchanged", backup: null, entries: 0 }, notes };
	const backup = await writeConfigText(file, original, edit.text, options);
	const action = edit.removed > 0 ? "updated" : "installed";
	return { report: { file, action, backup, entries: edit.added }, notes };
}

export async function uninstallCodex(options: InstallOptions): Promise<InstallReport> {
	const file = hooksFile(options.scope, options);
	const original = await readConfigText(file);
	if (original === null) return { file, action: "absent", backup: null, entries: 0 };
	const edit = withoutOurHooksOf(DIALECT, original, file);
	if (edit.removed === 0) return { file, action: "absent", backup: null, entries: 0 };
	const empty = sameJson(plainValue(parseSettings(DIALECT, edit.text, file)), {});
	const { backup } = await writeOrRemoveConfig(file, original, edit.text, empty, options);
	return { file, action: "removed", backup, entries: edit.removed };
}

/** As the shell's `-O`: each exists and belongs to this user (links followed). Where there are no users, true. */
function ownedByUser(...files: string[]): boolean {
	const uid = process.getuid?.();
	if (uid === undefined) return true;
	return files.every((file) => {
		try {
			return statSync(file).uid === uid;
		} catch {
			return false;
		}
	});
}

export function ourEntries(hooks: unknown): OurCommand[] {
	return ourEntriesOf(DIALECT, hooks);
}

/**
 * What the portable commands run here, in words, as the shell finds it
 * (`hook-config.ts`): upwards from the folder to the project's root, a copy
 * that is the user's own; else the PATH. null when nothing.
 */
export function portableFinds(place: Place): string | null {
	let dir = path.resolve(place.cwd);
	for (;;) {
		const own = path.join(dir, "node_modules", PACKAGE_NAME, HOOK_BUNDLE);
		if (existsSync(own)) {
			if (ownedByUser(path.join(dir, "node_modules"), path.join(dir, "node_modules", PACKAGE_NAME), own)) {
				return `the project's devDependency, ${own}`;
			}
			break;
		}
		if (existsSync(path.join(dir, ".git")) || existsSync(path.join(dir, "package.json"))) break;
		const parent = path.dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	for (const folder of (place.env.PATH ?? "").split(path.delimiter)) {
		if (folder !== "" && existsSync(path.join(folder, HOOK_BIN))) return `${path.join(folder, HOOK_BIN)} on the PATH`;
	}
	return null;
}
