/**
 * Qwen Code's dialect of the command-hook family (`command-hook/dialect.ts`):
 * its registrations, `QWEN_PROJECT_DIR`, where its settings live (the
 * project's, committed, gets the portable commands; the user's, pinned), the
 * `"$version"` stamp it writes into them (which alone never keeps a file at
 * uninstall), its continuation cap (`cap.ts`) and `--raise-cap`, its words,
 * and the adapter the registry lists. It reads hooks as Claude Code does
 * (`docs/qwen-notes.md`); the installer links nothing for it.
 */
import path from "node:path";
import { applyEdits } from "jsonc-parser";
import { adapterOf } from "../command-hook/adapter.js";
import { type CommandHookDialect, installOf, projectFolderOf } from "../command-hook/dialect.js";
import type { HooksDoctor, HooksOk } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook } from "../command-hook/spelling.js";
import { parseSettings } from "../shared/hooks-file.js";
import { hooksDoctorText, hooksInstallText } from "../shared/install-messages.js";
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
const REGISTRATIONS: readonly HookRegistration<HookEvent>[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: "todo_write", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "StopFailure", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

const PROJECT_DIR_VAR = "QWEN_PROJECT_DIR";

export const dialect: CommandHookDialect<QwenHookInput> = {
	harness: HARNESS,
	events: HOOK_EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: PROJECT_DIR_VAR,
	parse: parseQwenHookInput,
	handle: (input, engine, streams) =>
		handleQwenHook(input, {
			engine,
			readTurn: readQwenTurn,
			readGoal: readQwenGoal,
			cap: () => effectiveCap(streams.env, projectFolderOf(dialect, streams, input.cwd)),
		}),
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

export const INSTALL_TEXT = /* @__PURE__ */ hooksInstallText("Qwen Code");

const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksDoctorText("Qwen Code", HARNESS), {
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
 * `--raise-cap`: the cap at its maximum, so a headless run (one prompt) can
 * finish a long list. Contract: a pure text edit, as `hooks-file.ts`: every
 * other byte kept, a non-object refused, the same bytes when already at 100.
 */
export function withRaisedCap(text: string, file: string): { text: string; changed: boolean } {
	const base = text.trim() === "" ? "{}\n" : text;
	const root = parseSettings({ text: INSTALL_TEXT }, base, file);
	const current = memberOf(root, CAP_SETTING);
	if (current?.value === MAX_CAP) return { text, changed: false };
	const edit = current
		? { ...removal(current.offset, current.offset + current.length), content: String(MAX_CAP) }
		: addMemberEdit(base, root, CAP_SETTING, MAX_CAP);
	return { text: applyEdits(base, [edit]), changed: true };
}

export const install = /* @__PURE__ */ installOf(dialect, {
	where: {
		project: ({ cwd }: family.Place) => path.join(cwd, ".qwen", "settings.json"),
		user: ({ env }: family.Place) => path.join(qwenHome(env), "settings.json"),
	},
	command: /* @__PURE__ */ boulderHook(HARNESS, PROJECT_DIR_VAR, { link: null }),
	/** The settings version Qwen Code 0.24 stamps into the files it reads. */
	stamp: { $version: 4 },
	text: INSTALL_TEXT,
	async alsoEdit(text, file, options) {
		const raised = options.raiseCap ? withRaisedCap(text, file) : { text, changed: false };
		return { ...raised, notes: [await capNote(options, file, raised.changed)] };
	},
});

/** What the install says of the cap, never nothing: what it set, or where it stands and how to raise it. */
async function capNote(options: family.InstallOptions, file: string, raised: boolean): Promise<string> {
	if (options.raiseCap) return raised ? CAP_TEXT.set(file) : CAP_TEXT.alreadySet(file);
	const cap = await effectiveCap(options.env, options.cwd);
	return cap >= MAX_CAP ? CAP_TEXT.ok(cap) : CAP_TEXT.offer(cap, options.scope);
}

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	async installed(_values, context) {
		const cap = await effectiveCap(context.env, context.cwd);
		return cap < MAX_CAP
			? [{ check: HARNESS, level: "warn", message: DOCTOR_TEXT.lowCap(cap), fix: DOCTOR_TEXT.lowCapFix }]
			: [{ check: HARNESS, level: "ok", message: DOCTOR_TEXT.capOk(cap), fix: null }];
	},
};

const RAISE_CAP_FLAG = "raise-cap";
const RAISE_CAP_HELP =
	"also set stopHookBlockingCap to 100 in the same settings: Qwen Code lets only 7 continuations through per prompt by default, and a headless run (qwen -p) is one prompt";

const CAP_TEXT = {
	set: (file: string) =>
		`Set "stopHookBlockingCap": 100 in ${file}: Qwen Code now lets 99 continuations through per prompt, so a long list can finish in one run; boulder's budgets and stagnation guard still bound it. \`boulder uninstall\` leaves it; remove it by hand to undo.`,
	alreadySet: (file: string) => `"stopHookBlockingCap" is already 100 in ${file}.`,
	ok: (cap: number) => `Qwen Code lets ${cap - 1} continuations through per prompt (stopHookBlockingCap ${cap}).`,
	offer: (cap: number, scope: string) =>
		`Qwen Code lets only ${cap - 1} continuation(s) through per prompt (stopHookBlockingCap ${cap}), and a headless run (qwen -p) is one prompt: a longer list stops there, and boulder says so in the session and in \`boulder why\`. To raise it, run \`boulder install qwen --${scope} --raise-cap\` (it sets "stopHookBlockingCap": 100), or set QWEN_CODE_STOP_HOOK_BLOCK_CAP=100.`,
};

export const qwenAdapter = /* @__PURE__ */ adapterOf({
	title: "Qwen Code",
	program: "qwen",
	scopes: {
		project:
			"this project's .qwen/settings.json, shared with everyone who works on it; no path of this machine in it (the default)",
		user: "your user settings (~/.qwen/settings.json or $QWEN_HOME/settings.json): every project",
	},
	installFlags: [{ name: RAISE_CAP_FLAG, help: RAISE_CAP_HELP }],
	options: (flags) => ({ raiseCap: flags.includes(RAISE_CAP_FLAG) }),
	parts: { dialect, install, doctor },
	normalizeTodos: normalizeQwenTodoWrite,
});
