/**
 * Codex's dialect of the command-hook family (`command-hook/dialect.ts`;
 * facts in `docs/codex-notes.md`), its event mapping in `events.ts`. Codex
 * names no project folder, so the project is found from the input's `cwd`,
 * and the portable command searches upward from there. Installing never
 * trusts the hooks: that is the user's review in Codex (`trust.ts`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { adapterOf } from "../command-hook/adapter.js";
import { type CommandHookDialect, installOf } from "../command-hook/dialect.js";
import { type HooksDoctor, type HooksOk, portableHere } from "../command-hook/doctor.js";
import type * as family from "../command-hook/install.js";
import { HOOK_TIMEOUT_SECONDS, type HookRegistration, STOP_TIMEOUT_SECONDS } from "../command-hook/registrations.js";
import { boulderHook, commandReader } from "../command-hook/spelling.js";
import { harnessHome } from "../shared/harness-home.js";
import { isPortable } from "../shared/hook-form.js";
import { hooksDoctorText, hooksInstallText } from "../shared/install-messages.js";
import { HARNESS, HOOK_EVENTS, type HookInput, handleHook, normalizeCodexPlan, parseHookInput } from "./events.js";
import { readCodexGoal } from "./goal.js";
import { readRolloutTurn } from "./rollout.js";
import { projectTrusted, readHookStates, type TrustStatus, trustOf } from "./trust.js";

/**
 * PostToolUse for the plan and edit tools (boulder's copy of the plan, edits
 * as activity). Codex kills a hook that outlives its timeout, and clamps an
 * Interrupt hook's to 3 s. PostCompact is handled but not installed:
 * PreCompact already reports the compaction.
 */
export const REGISTRATIONS: readonly HookRegistration[] = [
	{ event: "SessionStart", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "UserPromptSubmit", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "PostToolUse", matcher: "^(update_plan|apply_patch)$", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Stop", timeout: STOP_TIMEOUT_SECONDS },
	{ event: "SubagentStop", timeout: HOOK_TIMEOUT_SECONDS },
	{ event: "Interrupt", timeout: 3 },
	{ event: "PreCompact", timeout: HOOK_TIMEOUT_SECONDS },
];

export const dialect: CommandHookDialect<HookInput> = {
	harness: HARNESS,
	events: HOOK_EVENTS,
	registrations: REGISTRATIONS,
	projectDirVar: null,
	parse: parseHookInput,
	handle: (input, engine) => handleHook(input, { engine, readTurn: readRolloutTurn, readGoal: readCodexGoal }),
};

// The install data below is pure (`@__PURE__`): the hook bundle, which needs only `dialect`, drops it.

/** Portable hooks that find no boulder print this at session start (in a single-quoted shell word: no `'`). */
export const NOT_INSTALLED_NOTICE =
	"boulder: this project runs boulder from its Codex hooks, but boulder is not installed here (npm install -g boulder-agent, or add it to the project devDependencies); carrying on without it.";

/** Said after every install: Codex runs no hook it was not told to trust. */
const TRUST_NOTE =
	"Codex runs a hook only once you trust it: start `codex` here and review boulder's hooks with /hooks (Codex asks at start-up when hooks are new or changed). `codex exec` silently skips untrusted hooks; `--dangerously-bypass-hook-trust` runs them anyway, for automation you vetted. `boulder doctor` says whether they are trusted.";

const PROJECT_TRUST_NOTE =
	'Codex reads this project\'s .codex/hooks.json only once the project itself is trusted (Codex asks the first time you start it here; or set `projects."<this folder>".trust_level = "trusted"` in $CODEX_HOME/config.toml).';

const SPELLING = /* @__PURE__ */ boulderHook(HARNESS, null, {
	link: null,
	notInstalled: /* @__PURE__ */ JSON.stringify({ systemMessage: NOT_INSTALLED_NOTICE }),
});
const parseOurCommand = /* @__PURE__ */ commandReader(SPELLING);

export const INSTALL_TEXT = /* @__PURE__ */ Object.assign(
	/* @__PURE__ */ hooksInstallText("Codex", { holds: "a hooks object" }),
	{
		here: (found: string | null) =>
			found
				? `Here they find ${found}.`
				: "Here they find neither yet: add boulder-agent to the project's devDependencies or install it globally.",
	},
);

const DOCTOR_TEXT = /* @__PURE__ */ Object.assign(/* @__PURE__ */ hooksDoctorText("Codex", HARNESS, { notice: true }), {
	notInstalled: "boulder's Codex hooks are not in this project's .codex/hooks.json or in $CODEX_HOME/hooks.json",
	ok: (file: string, { version, count, where }: HooksOk) =>
		`hooks installed in ${file} (${where === null ? `pinned to boulder ${version}, trusted, ${count} events` : `portable, trusted; here they run ${where}`})`,
	untrusted: (file: string, events: string[]) =>
		`Codex does not trust boulder's hooks in ${file} yet (${events.join(", ")}): it skips them, and boulder does nothing`,
	modified: (file: string, events: string[]) =>
		`boulder's hooks in ${file} changed since you trusted them (${events.join(", ")}): Codex skips them until you trust them again`,
	trustFix: "start `codex` here and trust boulder's hooks with /hooks",
	disabled: (file: string, events: string[]) =>
		`boulder's hooks in ${file} are turned off in Codex (${events.join(", ")})`,
	projectUntrusted: (folder: string) =>
		`Codex does not trust the project ${folder}, so it ignores its .codex/hooks.json`,
	projectTrustFix: "start `codex` in the project and trust it when asked",
});

const codexHome = (env: NodeJS.ProcessEnv) => harnessHome(env, "CODEX_HOME", ".codex");

const WHERE = {
	user: ({ env }: family.Place) => path.join(codexHome(env), "hooks.json"),
	project: ({ cwd }: family.Place) => path.join(cwd, ".codex", "hooks.json"),
};
export const hooksFile = (scope: keyof typeof WHERE, place: family.Place): string => WHERE[scope](place);

export const install = /* @__PURE__ */ installOf(dialect, {
	where: WHERE,
	command: SPELLING,
	text: INSTALL_TEXT,
	here: ({ options }) => {
		const here = portableHere(install, options);
		return INSTALL_TEXT.here(here.kind === "none" ? null : here.where);
	},
	notes: ({ form }) => (isPortable(form) ? [PROJECT_TRUST_NOTE, TRUST_NOTE] : [TRUST_NOTE]),
});

export const doctor: HooksDoctor = {
	text: DOCTOR_TEXT,
	place: (scope) => `${scope} hooks`,
	judge: async ({ scope, file, value, context }) => {
		const found: DoctorFinding[] = [];
		const say = (level: DoctorFinding["level"], message: string, fix: string) =>
			found.push({ check: HARNESS, level, message, fix, file });
		const config = await readFile(path.join(codexHome(context.env), "config.toml"), "utf8").catch((error) => {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
			throw error;
		});
		if (scope === "project" && !projectTrusted(config, path.resolve(context.cwd))) {
			say("warn", DOCTOR_TEXT.projectUntrusted(path.resolve(context.cwd)), DOCTOR_TEXT.projectTrustFix);
		}
		const trust = trustOf(file, value, readHookStates(config), (handler) => parseOurCommand(handler.command) !== null);
		const with_ = (status: TrustStatus) => trust.filter((one) => one.status === status).map((one) => one.event);
		if (with_("untrusted").length > 0)
			say("problem", DOCTOR_TEXT.untrusted(file, with_("untrusted")), DOCTOR_TEXT.trustFix);
		if (with_("modified").length > 0)
			say("problem", DOCTOR_TEXT.modified(file, with_("modified")), DOCTOR_TEXT.trustFix);
		if (with_("disabled").length > 0) {
			say("warn", DOCTOR_TEXT.disabled(file, with_("disabled")), "turn them on again with /hooks in Codex");
		}
		return found;
	},
};

/** Codex CLI as the adapter registry sees it (`command-hook/adapter.ts`). */
export const codexAdapter = /* @__PURE__ */ adapterOf({
	title: "Codex",
	program: "codex",
	scopes: {
		user: "your Codex hooks ($CODEX_HOME/hooks.json, default ~/.codex): every project, just you (the default)",
		project: "this project's .codex/hooks.json, shared with everyone who works on it (no path of this machine in it)",
	},
	parts: { dialect, install, doctor },
	normalizeTodos: normalizeCodexPlan,
});
