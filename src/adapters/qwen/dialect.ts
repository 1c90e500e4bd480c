/**
 * Qwen Code's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations and their command, `QWEN_PROJECT_DIR`, where its
 * settings live, its settings stamp, its continuation cap (`cap.ts`) and
 * `--raise-cap`, its words, and the adapter the registry lists. Its events,
 * input and `todo_write` list are its event mapping's (`events.ts`); its
 * transcript reader is `transcript.ts`. Run by the bundled hook program
 * (`boulder-hook.cjs qwen <Event>`) and `boulder hook qwen <Event>`.
 *
 * Qwen Code reads hooks as Claude Code does (`hooks.<Event>` groups of
 * `{type: "command", command, timeout}` in its settings; timeouts in
 * seconds) and runs each command with `sh -c`: `dist/hook/boulder-hook.cjs
 * qwen <Event>`, pinned (user settings) or portable (a project's settings a
 * team commits: the project's own boulder-agent, else `boulder-hook` on the
 * PATH; the installer links nothing for Qwen Code; with neither it exits
 * quietly).
 *
 * - project: `<cwd>/.qwen/settings.json` (committed): the portable commands;
 * - user: `~/.qwen/settings.json`, or `$QWEN_HOME/settings.json`: pinned.
 *
 * Qwen Code stamps the settings files it reads with `"$version"`; a file
 * boulder created holds it from the start, so that stamp alone never keeps
 * the file at uninstall. `--raise-cap` also sets `stopHookBlockingCap` to its
 * maximum in the same file; the install and the doctor say where the cap
 * stands either way.
 */
import path from "node:path";
import { applyEdits } from "jsonc-parser";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { commandHookAdapter } from "../command-hook/adapter.js";
import { type CommandHookDialect, projectFolderOf } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import { isPortable } from "../shared/hook-form.js";
import { parseSettings } from "../shared/hooks-file.js";
import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";
import { addMemberEdit, memberOf, removal } from "../shared/settings-json.js";
import { CAP_SETTING, effectiveCap, MAX_CAP, qwenHome } from "./cap.js";
import {
	HARNESS,
	HOOK_EVENTS,
	type HookEvent,
	handleQwenHook,
	normalizeQwenTodoWrite,
	parseQwenHookInput,
	type QwenHookInput,
} from "./events.js";
import { readQwenGoal } from "./goal.js";
import { readQwenTurn } from "./transcript.js";

/** PostCompact is not installed: PreCompact already reports the compaction. */
export const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: "todo_write", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

/** The variable the harness sets to the project's folder: the dialect's, and where the portable command looks first. */
export const PROJECT_DIR_VAR = "QWEN_PROJECT_DIR";

export const dialect: CommandHookDialect<QwenHookInput> = {
	harness: HARNESS,
	events: HOOK_EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: PROJECT_DIR_VAR,
	parse: parseQwenHookInput,
	stopEvent: "Stop",
	handle: (input, engine, streams) =>
		handleQwenHook(input, {
			engine,
			readTurn: readQwenTurn,
			readGoal: readQwenGoal,
			cap: () => effectiveCap(streams.env, projectFolderOf(dialect, streams, input.cwd)),
		}),
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

export const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { link: null });

export const INSTALL_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksInstallText("Qwen Code"), {
	portable: /* @__PURE__ */ portableHooksNote({ onPath: "boulder-hook", notice: false }),
});

/** What `boulder doctor` says about Qwen Code installs. */
export const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksDoctorText("Qwen Code"), {
	notInstalled: "boulder's Qwen Code hooks are not in this project's or your user settings",
	installFix: "`boulder install qwen` adds them, if you use Qwen Code here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); boulder cannot tell whether its hooks are there`,
	ok: (file: string, { version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}` : "portable"}, ${count} events)`,
	noneFound: (file: string) =>
		`the portable hooks in ${file} find no boulder here (no devDependency, no boulder-hook on the PATH): they do nothing`,
	lowCap: (cap: number) =>
		`Qwen Code ends a prompt's run after ${cap - 1} continuations (stopHookBlockingCap ${cap}): a long list stops there and waits for your next message`,
	lowCapFix:
		'`boulder install qwen --raise-cap` (sets "stopHookBlockingCap": 100 in the settings it installs to), or set it by hand in ~/.qwen/settings.json or the project\'s .qwen/settings.json (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100)',
	capOk: (cap: number) => `Qwen Code honours ${cap - 1} continuations per prompt (stopHookBlockingCap ${cap})`,
});

/**
 * `boulder install qwen --raise-cap`: Qwen Code overrides the Stop hook at
 * its `stopHookBlockingCap` (8 by default, so 7 continuations per prompt),
 * and a headless run (`qwen -p`) is one prompt, so a longer list cannot
 * finish there. The flag sets the cap to its maximum in the settings file the
 * install writes; without the flag boulder only says so. boulder's own budgets
 * and stagnation guard still bound every run.
 *
 * Contract: a pure text edit, as `hooks-file.ts`: the user's other settings
 * keep every byte; a file that is not a settings object is refused. The same
 * bytes when it already is at its maximum.
 */
export function withRaisedCap(text: string, file: string): { text: string; changed: boolean } {
	const base = text.trim() === "" ? "{}\n" : text;
	const root = parseSettings({ text: INSTALL_TEXT }, base, file);
	const current = memberOf(root, CAP_SETTING);
	if (current === undefined) {
		return { text: applyEdits(base, [addMemberEdit(base, root, CAP_SETTING, MAX_CAP)]), changed: true };
	}
	if (current.value === MAX_CAP) return { text, changed: false };
	const edit = { ...removal(current.offset, current.offset + current.length), content: String(MAX_CAP) };
	return { text: applyEdits(base, [edit]), changed: true };
}

/** Where its settings are: the project's (the default), the user's. */
const WHERE = {
	project: ({ cwd }: family.Place) => path.join(cwd, ".qwen", "settings.json"),
	user: ({ env }: family.Place) => path.join(qwenHome(env), "settings.json"),
};
export type InstallScope = keyof typeof WHERE;
export const settingsFile = (scope: InstallScope, place: family.Place): string => WHERE[scope](place);

export const install: family.HooksInstall = {
	harness: HARNESS,
	where: WHERE,
	registrations: REGISTRATIONS,
	command: SPELLING,
	/** The settings version Qwen Code 0.24 stamps into the files it reads. */
	stamp: { $version: 4 },
	text: INSTALL_TEXT,
	notes: ({ form }) => [isPortable(form) ? INSTALL_TEXT.portable : INSTALL_TEXT.pinned(form.node, form.bundle)],
	async alsoEdit(text, file, options) {
		const raised = options.raiseCap ? withRaisedCap(text, file) : { text, changed: false };
		return { ...raised, notes: [await capNote(options, file, raised.changed)] };
	},
};

/** What the install says about Qwen Code's continuation cap: what it set, or where it stands and how to raise it. Never silent. */
async function capNote(options: family.InstallOptions, file: string, raised: boolean): Promise<string> {
	if (options.raiseCap) return raised ? CAP_TEXT.set(file) : CAP_TEXT.alreadySet(file);
	const cap = await effectiveCap(options.env, options.cwd);
	return cap >= MAX_CAP ? CAP_TEXT.ok(cap) : CAP_TEXT.offer(cap, options.scope);
}

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	/** How many continuations Qwen Code honours per prompt: its cap ends a long list's run early unless it is lifted. */
	async installed(_values, context): Promise<DoctorFinding[]> {
		const cap = await effectiveCap(context.env, context.cwd);
		return cap < MAX_CAP
			? [{ check: HARNESS, level: "warn", message: DOCTOR_TEXT.lowCap(cap), fix: DOCTOR_TEXT.lowCapFix }]
			: [{ check: HARNESS, level: "ok", message: DOCTOR_TEXT.capOk(cap), fix: null }];
	},
};

/** The flag that lifts Qwen Code's continuation cap as far as it goes, and its help. */
const RAISE_CAP_FLAG = "raise-cap";
const RAISE_CAP_HELP =
	"also set stopHookBlockingCap to 100 in the same settings: Qwen Code lets only 7 continuations through per prompt by default, and a headless run (qwen -p) is one prompt";

/** What `boulder install qwen` says about Qwen Code's continuation cap. */
export const CAP_TEXT = {
	flagHelp: RAISE_CAP_HELP,
	set: (file: string) =>
		`Set "stopHookBlockingCap": 100 in ${file}: Qwen Code now lets 99 continuations through per prompt, so a long list can finish in one run; boulder's budgets and stagnation guard still bound it. \`boulder uninstall\` leaves it; remove it by hand to undo.`,
	alreadySet: (file: string) => `"stopHookBlockingCap" is already 100 in ${file}.`,
	ok: (cap: number) => `Qwen Code lets ${cap - 1} continuations through per prompt (stopHookBlockingCap ${cap}).`,
	offer: (cap: number, scope: string) =>
		`Qwen Code lets only ${cap - 1} continuation(s) through per prompt (stopHookBlockingCap ${cap}), and a headless run (qwen -p) is one prompt: a longer list stops there, and boulder says so in the session and in \`boulder why\`. To raise it, run \`boulder install qwen --${scope} --raise-cap\` (it sets "stopHookBlockingCap": 100), or set QWEN_CODE_STOP_HOOK_BLOCK_CAP=100.`,
};

/**
 * Qwen Code as the adapter registry sees it (`command-hook/adapter.ts`):
 * hooks in its settings files (Claude Code's pattern), served by the one hook
 * program (`boulder-hook.cjs qwen <Event>`), its `todo_write` list.
 */
export const qwenAdapter = /* @__PURE__ */ commandHookAdapter({
	name: HARNESS,
	title: "Qwen Code",
	program: "qwen",
	scopes: [
		{
			name: "project",
			help: "this project's .qwen/settings.json, shared with everyone who works on it; no path of this machine in it (the default)",
		},
		{ name: "user", help: "your user settings (~/.qwen/settings.json or $QWEN_HOME/settings.json): every project" },
	],
	defaultScope: "project",
	installFlags: [{ name: RAISE_CAP_FLAG, help: RAISE_CAP_HELP }],
	options: (flags) => ({ raiseCap: flags.includes(RAISE_CAP_FLAG) }),
	events: HOOK_EVENTS,
	dialect: async () => ({ dialect }),
	install: async () => ({ install, doctor }),
	normalizeTodos: normalizeQwenTodoWrite,
});
