/**
 * What the Qwen Code adapter says to people: why it waits, why a nudge was
 * not sent, and the installer's and doctor's words. The nudges themselves
 * are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

/** Why boulder waits in Qwen Code's plan mode. */
export const planModeWait = "Qwen Code is in plan mode: the agent proposes and waits for the user to approve";

/** Why a nudge was not sent: Qwen Code would have overridden it. */
/** Where Qwen Code's continuation cap is raised, as `why` names it. */
export const CAP_LIFT =
	'"stopHookBlockingCap" in .qwen/settings.json (`boulder install qwen --raise-cap` sets it to 100, its maximum) or QWEN_CODE_STOP_HOOK_BLOCK_CAP';

export const INSTALL_TEXT = {
	...hooksInstallText("Qwen Code"),
	portable: portableHooksNote({ onPath: "boulder-hook", notice: false }),
};

/** What `boulder install qwen` says about Qwen Code's continuation cap. */
export const CAP_TEXT = {
	flagHelp:
		"also set stopHookBlockingCap to 100 in the same settings: Qwen Code lets only 7 continuations through per prompt by default, and a headless run (qwen -p) is one prompt",
	set: (file: string) =>
		`Set "stopHookBlockingCap": 100 in ${file}: Qwen Code now lets 99 continuations through per prompt, so a long list can finish in one run; boulder's budgets and stagnation guard still bound it. \`boulder uninstall\` leaves it; remove it by hand to undo.`,
	alreadySet: (file: string) => `"stopHookBlockingCap" is already 100 in ${file}.`,
	ok: (cap: number) => `Qwen Code lets ${cap - 1} continuations through per prompt (stopHookBlockingCap ${cap}).`,
	offer: (cap: number, scope: string) =>
		`Qwen Code lets only ${cap - 1} continuation(s) through per prompt (stopHookBlockingCap ${cap}), and a headless run (qwen -p) is one prompt: a longer list stops there, and boulder says so in the session and in \`boulder why\`. To raise it, run \`boulder install qwen --${scope} --raise-cap\` (it sets "stopHookBlockingCap": 100), or set QWEN_CODE_STOP_HOOK_BLOCK_CAP=100.`,
};

/** What `boulder doctor` says about Qwen Code installs. */
export const DOCTOR_TEXT = {
	...hooksDoctorText("Qwen Code"),
	notInstalled: "boulder's Qwen Code hooks are not in this project's or your user settings",
	installFix: "`boulder install qwen` adds them, if you use Qwen Code here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); boulder cannot tell whether its hooks are there`,
	otherVersion: (file: string, installed: string, version: string) =>
		`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
	ok: (file: string, form: string, events: number) => `hooks installed in ${file} (${form}, ${events} events)`,
	noneFound: (file: string) =>
		`the portable hooks in ${file} find no boulder here (no devDependency, no boulder-hook on the PATH): they do nothing`,
	lowCap: (cap: number) =>
		`Qwen Code ends a prompt's run after ${cap - 1} continuations (stopHookBlockingCap ${cap}): a long list stops there and waits for your next message`,
	lowCapFix:
		'`boulder install qwen --raise-cap` (sets "stopHookBlockingCap": 100 in the settings it installs to), or set it by hand in ~/.qwen/settings.json or the project\'s .qwen/settings.json (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100)',
	capOk: (cap: number) => `Qwen Code honours ${cap - 1} continuations per prompt (stopHookBlockingCap ${cap})`,
};
