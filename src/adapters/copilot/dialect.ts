/**
 * Copilot CLI's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations, install data, words and adapter.
 *
 * Copilot runs every `*.json` in its hooks folders (`docs/copilot-notes.md`),
 * so boulder keeps its hooks in a file of its own, `boulder.json`, written and
 * taken away whole, and refuses one that holds anyone else's hooks or is not
 * JSON. The project's file (committed) runs the portable command; the user's is
 * pinned.
 */
import path from "node:path";
import { adapterOf } from "../command-hook/adapter.js";
import { type CommandHookDialect, installOf } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import { harnessHome } from "../shared/harness-home.js";
import { commandHookDoctorText, hooksInstallText } from "../shared/install-messages.js";
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

/** Every event boulder answers, each with the family's timeout (Copilot kills a hook after its `timeoutSec`). */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = HOOK_EVENTS.map((event) => ({
	event,
	timeout: event === "agentStop" ? STOP_TIMEOUT_SECONDS : HOOK_TIMEOUT_SECONDS,
}));

const HOOKS_FILE = "boulder.json";
const PROJECT_DIR_VAR = "COPILOT_PROJECT_DIR";

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

const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR);

export const INSTALL_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksInstallText("Copilot CLI", {
		restart:
			"Copilot CLI reads hooks when a session starts: restart running sessions to pick them up. In prompt mode (-p) it runs a project's hooks only with --trust-folder; your user hooks always run.",
		ownFile: true,
	}),
	{
		notOurs: (file: string) =>
			`${file} holds hooks that are not boulder's; boulder did not touch it. Rename it (Copilot reads every *.json in that folder) and run the command again.`,
		autopilot:
			"Do not also run Copilot's own --autopilot (or /autopilot) in these sessions: two continuation loops would nudge the same agent.",
	},
);

const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ commandHookDoctorText("Copilot CLI", HARNESS), {
	notInstalled: "boulder's Copilot CLI hooks are not in this project's .github/hooks or your user hooks folder",
	installFix: "`boulder install copilot` adds them, if you use Copilot CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as boulder's hooks file (${problem}); Copilot will not run boulder from it`,
	unreadableFix: "fix the file, or move it away and run `boulder install copilot` again",
	ok: (file: string, { version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}, ${count} events` : `portable: here they run boulder ${version}, ${where}`}; Copilot stops continuing after 8 blocks in a row)`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, no boulder-hook on the PATH): they do nothing`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to boulder-hook on the PATH`,
});

/** boulder's hooks file in the project's hooks folder (the default), or the user's (`$COPILOT_HOME`, else `~/.copilot`). */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".github", "hooks", HOOKS_FILE),
	user: ({ env }: family.Place) => path.join(harnessHome(env, "COPILOT_HOME", ".copilot"), "hooks", HOOKS_FILE),
};
export const hooksFile = (scope: keyof typeof WHERE, place: family.Place): string => WHERE[scope](place);

export const install = /* @__PURE__ */ installOf(dialect, {
	where: WHERE,
	command: SPELLING,
	layout: "own",
	entry: (bash, { timeout }) => ({ type: "command", bash, timeoutSec: timeout }),
	commandKey: "bash",
	text: INSTALL_TEXT,
	notes: () => [INSTALL_TEXT.autopilot],
});

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	place: (scope) => `${scope} hooks`,
};

export const copilotAdapter = /* @__PURE__ */ adapterOf({
	title: "Copilot CLI",
	program: "copilot",
	scopes: {
		project:
			"this project's .github/hooks/boulder.json, shared with everyone who works on it (no path of this machine in it; the default)",
		user: "your user hooks folder (~/.copilot/hooks/boulder.json or $COPILOT_HOME/hooks): every project",
	},
	parts: { dialect, install, doctor },
	normalizeTodos: normalizeCopilotTodos,
});
