/**
 * Copilot CLI's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations and their command, `COPILOT_PROJECT_DIR`, boulder's own
 * hooks file in Copilot's hooks folders and its entry shape, its words, and
 * the adapter the registry lists. Its camelCase events and input, and its
 * session database's todos (`session-db.ts`), are its event mapping's
 * (`events.ts`); its event-log reader and continuation cap are
 * `transcript.ts`. Run by the bundled hook program (`boulder-hook.cjs
 * copilot <event>`) and `boulder hook copilot <event>`.
 *
 * Copilot reads every `*.json` in `.github/hooks/` (the project) and in
 * `$COPILOT_HOME/hooks/` (the user, default `~/.copilot/hooks/`), each
 * `{"version": 1, "hooks": {<event>: [{"type": "command", "bash": …,
 * "timeoutSec": …}]}}`, and runs every entry of every file. So boulder keeps
 * its hooks in a file of its own, `boulder.json`, written whole and taken
 * away whole at uninstall (with the folders the install made for it), which
 * leaves the folder byte for byte as it was, and never edits anyone else's.
 * A `boulder.json` that holds anyone else's hooks, or is not JSON, is
 * refused, never rewritten. Commands are pinned (the user's file) or portable
 * (the committed project file: the project's devDependency, the user's link,
 * `boulder-hook` on the PATH, else a quiet exit: Copilot shows a hook no
 * notice).
 *
 * - project: `<cwd>/.github/hooks/boulder.json` (committed): the portable
 *   commands, and a link to this copy of boulder for this user;
 * - user: `$COPILOT_HOME/hooks/boulder.json` (default `~/.copilot/hooks/`): pinned.
 */
import os from "node:os";
import path from "node:path";
import { commandHookAdapter } from "../command-hook/adapter.js";
import type { CommandHookDialect } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import { isPortable } from "../shared/hook-form.js";
import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";
import { readAutopilot } from "./autopilot.js";
import {
	HARNESS,
	HOOK_EVENTS,
	type HookEvent,
	type HookInput,
	handleHook,
	normalizeCopilotTodos,
	parseHookInput,
	readTodos,
} from "./events.js";
import { readBlockChain, readTurn } from "./transcript.js";

/**
 * The events boulder installs (Copilot kills a hook after `timeoutSec`, 30 by
 * default). sessionStart carries the resume context to a resumed session.
 */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "sessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "userPromptSubmitted", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "agentStop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "subagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "errorOccurred", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "preCompact", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "sessionEnd", timeout: HOOK_TIMEOUT_SECONDS },
];

/** boulder's own hooks file, in either hooks folder. */
export const HOOKS_FILE = "boulder.json";

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "COPILOT_PROJECT_DIR";

export const dialect: CommandHookDialect<HookInput> = {
	harness: HARNESS,
	events: HOOK_EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: PROJECT_DIR_VAR,
	parse: parseHookInput,
	handle: (input, engine) => handleHook(input, { engine, readTurn, readTodos, readBlockChain, readAutopilot }),
	stopEvent: "agentStop",
	// agentStop has no channel for a notice: a bad config is told on stderr and in `boulder why`.
	showsNotices: false,
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR);

/** What the install says; Copilot's agentStop has no channel for a notice to the user, so there are no hook notices. */
export const INSTALL_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksInstallText("Copilot CLI", {
		restart:
			"Copilot CLI reads hooks when a session starts: restart running sessions to pick them up. In prompt mode (-p) it runs a project's hooks only with --trust-folder; your user hooks always run.",
		ownFile: true,
	}),
	{
		notOurs: (file: string) =>
			`${file} holds hooks that are not boulder's; boulder did not touch it. Rename it (Copilot reads every *.json in that folder) and run the command again.`,
		portable: (link: string | null, root: string) =>
			portableHooksNote({ onPath: "boulder-hook", linked: { link, root }, notice: false }),
		autopilot:
			"Do not also run Copilot's own --autopilot (or /autopilot) in these sessions: two continuation loops would nudge the same agent.",
	},
);

export const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksDoctorText("Copilot CLI"), {
	notInstalled: "boulder's Copilot CLI hooks are not in this project's .github/hooks or your user hooks folder",
	installFix: "`boulder install copilot` adds them, if you use Copilot CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as boulder's hooks file (${problem}); Copilot will not run boulder from it`,
	unreadableFix: "fix the file, or move it away and run `boulder install copilot` again",
	otherVersion: (file: string, installed: string, version: string, where: string) =>
		`the hooks in ${file} run boulder ${installed} (${where}); this is ${version}: two versions would share one state folder`,
	ok: (file: string, { version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}, ${count} events` : `portable: here they run boulder ${version}, ${where}`}; Copilot stops continuing after 8 blocks in a row)`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, no boulder-hook on the PATH): they do nothing`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to boulder-hook on the PATH`,
});

/** Where boulder's hooks file is: the project's hooks folder (the default), the user's. */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".github", "hooks", HOOKS_FILE),
	user: ({ env }: family.Place) => path.join(copilotHome(env), "hooks", HOOKS_FILE),
};
export type InstallScope = keyof typeof WHERE;
export const hooksFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

/** `$COPILOT_HOME`, else `~/.copilot`. */
export function copilotHome(env: NodeJS.ProcessEnv): string {
	return env.COPILOT_HOME || path.join(env.HOME || os.homedir(), ".copilot");
}

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	layout: "own",
	entry: (bash, { timeout }) => ({ type: "command", bash, timeoutSec: timeout }),
	commandKey: "bash",
	text: INSTALL_TEXT,
	notes: ({ form, link, root }) => [
		isPortable(form) ? INSTALL_TEXT.portable(link, root) : INSTALL_TEXT.pinned(form.node, form.bundle),
		INSTALL_TEXT.autopilot,
	],
};

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	place: (scope) => `${scope} hooks`,
};

/**
 * GitHub Copilot CLI as the adapter registry sees it (`command-hook/
 * adapter.ts`): boulder's own hooks file in Copilot's hooks folders, the
 * shared hook program (`boulder-hook.cjs copilot <event>`), the `todos` table
 * of its session database.
 */
export const copilotAdapter = /* @__PURE__ */ commandHookAdapter({
	name: HARNESS,
	title: "Copilot CLI",
	program: "copilot",
	scopes: [
		{
			name: "project",
			help: "this project's .github/hooks/boulder.json, shared with everyone who works on it (no path of this machine in it; the default)",
		},
		{
			name: "user",
			help: "your user hooks folder (~/.copilot/hooks/boulder.json or $COPILOT_HOME/hooks): every project",
		},
	],
	defaultScope: "project",
	events: HOOK_EVENTS,
	dialect: async () => ({ dialect }),
	install: async () => ({ install, doctor }),
	normalizeTodos: normalizeCopilotTodos,
});
