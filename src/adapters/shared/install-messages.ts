/**
 * What `boulder install`, `boulder uninstall` and `boulder doctor` say about
 * an install, in the words every harness shares: the harness's name changes,
 * and each adapter adds or replaces only the sentences that are true of its
 * harness alone (`<harness>/messages.ts`).
 */

/** "1 entry", "6 entries". */
function entries(count: number): string {
	return `${count} entr${count === 1 ? "y" : "ies"}`;
}

/** What an installer says when the file it would edit is not what `title` reads (`holds`: "a settings object"). */
function configFileText(title: string, holds: string, syntax = "JSON") {
	return {
		notJson: (file: string, problem: string) =>
			`${file} is not valid ${syntax} (${problem}); boulder did not touch it. Fix the file (or move it away) and run the command again.`,
		notObject: (file: string, what: string) =>
			`${file} holds ${what} where ${title} expects ${holds}; boulder did not touch it.`,
	};
}

/** A member of the file that must be a list is not (`key`: its path, "hooks.Stop" or "plugin"). */
function notAList(file: string, key: string): string {
	return `"${key}" in ${file} is not a list; boulder did not touch the file. Fix it by hand and run the command again.`;
}

/**
 * A key the installer reads appears twice (`key`: its path, "hooks" or
 * "hooks.Stop"): JSON readers disagree on which one counts, so boulder edits
 * neither.
 */
export function duplicateKeyText(file: string, key: string, lines: readonly number[]): string {
	return `"${key}" appears ${lines.length} times in ${file} (lines ${lines.join(", ")}); the harness reads only the last, so boulder did not touch the file. Merge them into one and run the command again.`;
}

/** The built file an install points its harness at is absent (`what`: "hook program", "extension"). */
function missingBuild(what: string, file: string): string {
	return `the ${what} ${file} is missing: this copy of boulder was not built (\`npm run build\`) or is damaged. Reinstall boulder-agent.`;
}

function backup(file: string): string {
	return `The previous file is kept as ${file}.`;
}

export interface HooksInstallOptions {
	/** What the harness's hooks file holds; "a settings object" unless it is a file of hooks alone. */
	holds?: string;
	/** How the harness takes up changed hooks; by default it reads them when a session starts. */
	restart?: string;
	/** The file holds boulder's hooks alone, so uninstalling removes it. */
	ownFile?: boolean;
}

/**
 * The installer's words for a harness that runs boulder from command hooks
 * (`title`: "Claude Code", "Gemini CLI"). `pinned` names a scope only where the
 * harness offers pinned hooks at more than one.
 */
export function hooksInstallText(title: string, options: HooksInstallOptions = {}) {
	return {
		...configFileText(title, options.holds ?? "a settings object"),
		hooksNotObject: (file: string) =>
			`"hooks" in ${file} is not an object; boulder did not touch the file. Fix it by hand and run the command again.`,
		eventNotList: (file: string, event: string) => notAList(file, `hooks.${event}`),
		noBundle: (file: string) => missingBuild("hook program", file),
		installed: (file: string, count: number) => `Installed boulder's ${title} hooks (${entries(count)}) in ${file}.`,
		updated: (file: string) => `Updated boulder's ${title} hooks in ${file}.`,
		unchanged: (file: string) => `boulder's ${title} hooks are already installed in ${file}; nothing changed.`,
		backup,
		removed: (file: string, count: number) =>
			`Removed boulder's ${title} hooks (${entries(count)})${options.ownFile ? `: ${file} is gone` : ` from ${file}`}.`,
		notInstalled: (file: string) => `boulder's ${title} hooks are not in ${file}; nothing changed.`,
		restart: options.restart ?? `${title} reads hooks when a session starts: restart running sessions to pick them up.`,
		pinned: (node: string, bundle: string, scope?: string) =>
			`The hooks run ${node} ${bundle}: pinned to this machine${scope ? ` (fine for ${scope} settings)` : ""}. If node or this copy of boulder moves, run this command again; \`boulder doctor\` notices.`,
	};
}

export interface PortableHooks {
	/** The program a global install of boulder puts on the PATH, which the hooks run last. */
	onPath: string;
	/** Where the hooks also try the user's link to an installed copy: the link (null: not made here) and that copy. */
	linked?: { link: string | null; root: string };
	/** Whether the hooks print a notice at session start where no boulder is installed. */
	notice: boolean;
	/** A sentence on what they find on this machine. */
	here?: string;
}

/** Said after installing hooks that name no path of this machine (a project's shared settings). */
export function portableHooksNote(hooks: PortableHooks): string {
	const linked = hooks.linked
		? `, else the one linked for you${hooks.linked.link ? ` (${hooks.linked.link} → ${hooks.linked.root})` : ""}`
		: "";
	const here = hooks.here ? ` ${hooks.here}` : "";
	const without = hooks.notice ? "print one notice per session and do nothing else" : "do nothing";
	return `The hooks name no path of this machine: they run the project's own boulder-agent (devDependency)${linked}, else ${hooks.onPath} on the PATH (a global install).${here} Teammates need boulder-agent installed; without it their hooks ${without}.`;
}

export interface EntryInstallOptions {
	/** The harness's name: "pi", "OpenCode". */
	title: string;
	/** What boulder is to it: "extension", "plugin". */
	thing: string;
	/** What its config file is called and holds: "settings", "config". */
	file: string;
	/** The list the entry goes in: "extensions", "plugin". */
	list: string;
	/** What the harness parses the file as; JSON unless it allows more. */
	syntax?: string;
}

/** The installer's words for a harness that loads boulder from one entry in a list of its config file. */
export function entryInstallText(options: EntryInstallOptions) {
	const ours = `boulder's ${options.title} ${options.thing}`;
	return {
		...configFileText(options.title, `a ${options.file} object`, options.syntax),
		notList: (file: string) => notAList(file, options.list),
		noBundle: (file: string) => missingBuild(options.thing, file),
		installed: (file: string) => `Installed ${ours} in ${file}.`,
		updated: (file: string) => `Updated ${ours} entry in ${file}.`,
		unchanged: (file: string) => `${ours} is already in ${file}; nothing changed.`,
		backup,
		removed: (file: string, count: number) => `Removed ${ours} (${entries(count)}) from ${file}.`,
		notInstalled: (file: string) => `${ours} is not in ${file}; nothing changed.`,
		machineLocal: `The entry is an absolute path to this copy of boulder: pinned to this machine (fine for your user ${options.file}). If boulder moves, run this command again; \`boulder doctor\` notices.`,
	};
}

/** `boulder doctor` on hooks written before they set `NODE_EXTRA_CA_CERTS` aside, where it is set. */
export const caCertsNotSetAside = (file: string) =>
	`the hooks in ${file} start node with NODE_EXTRA_CA_CERTS, which it reads and parses at every start (about 30 ms a hook for a system bundle); hooks boulder writes now set it aside for the hook and give it back to what the hook runs`;

export interface HooksDoctorOptions {
	/** What the user's file is, in "not in this project's or your user …": "settings" unless said. */
	file?: string;
	/** The portable hooks also try the user's link. */
	link?: boolean;
	/** The portable hooks print a notice at session start where they find no boulder. */
	notice?: boolean;
}

/** What `boulder doctor` says alike about any command-hook harness's install (`title`: "Codex", `harness`: "codex"). */
export function hooksDoctorText(title: string, harness: string, options: HooksDoctorOptions = {}) {
	return {
		notInstalled: `boulder's ${title} hooks are not in this project's or your user ${options.file ?? "settings"}`,
		installFix: `\`boulder install ${harness}\` adds them, if you use ${title} here`,
		unreadable: (file: string, problem: string) =>
			`${file} cannot be read as JSON (${problem}); ${title} will not run its hooks either`,
		unreadableFix: "fix the file, or move it away",
		twice: (places: string[]) =>
			`boulder runs from more than one place in ${title} (${places.join(", ")}): every event runs boulder more than once`,
		programGone: (file: string, program: string) =>
			`the hooks in ${file} run ${program}, which does not exist (moved or removed): they fail and boulder does nothing`,
		missingEvents: (file: string, events: string[]) => `the hooks in ${file} miss ${events.join(", ")}`,
		otherVersion: (file: string, installed: string, version: string) =>
			`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
		noneFound: (file: string) =>
			`the hooks in ${file} find no installed boulder here (no devDependency${options.link ? ", no link" : ""}, nothing on the PATH): ${options.notice ? "they print a notice at session start and do nothing else" : "they do nothing"}`,
	};
}

/**
 * Every word of `boulder doctor` for a command-hook harness that says nothing
 * of its own (`title`: "Factory Droid", `harness`: "droid").
 */
export function commandHookDoctorText(title: string, harness: string, options: HooksDoctorOptions = {}) {
	return {
		...hooksDoctorText(title, harness, { file: "hooks", ...options }),
		installFix: `\`boulder install ${harness}\`, if you use ${title} here`,
		unreadable: (file: string, problem: string) => `${file} cannot be read (${problem})`,
		otherVersion: (file: string, installed: string, version: string, where: string) =>
			`the hooks in ${file} run boulder ${installed} (${where}); this is ${version}: two versions would share one state folder`,
		shadowed: (file: string, reader: string) =>
			`${title} reads ${reader}, not the hooks in ${file}: boulder's do not run`,
		ok: (file: string, said: { count: number }) => `hooks installed in ${file} (${said.count} events)`,
	};
}
