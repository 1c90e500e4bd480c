/**
 * What the Qwen Code adapter says to people: why it waits, why a nudge was
 * not sent, and the installer's and doctor's words. The nudges themselves
 * are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

/** Why boulder waits in Qwen Code's plan mode. */
export const planModeWait = "Qwen Code is in plan mode: the agent proposes and waits for the user to approve";

/** Why a nudge was not sent: Qwen Code would have overridden it. */
export function capReached(cap: number): string {
	return `Qwen Code ends a prompt's run after ${cap} Stop-hook blocks in a row (stopHookBlockingCap, at most 100; QWEN_CODE_STOP_HOOK_BLOCK_CAP); send a message to go on`;
}

export const INSTALL_TEXT = {
	...hooksInstallText("Qwen Code"),
	portable: portableHooksNote({ onPath: "boulder-hook", notice: false }),
	cap: 'Qwen Code honours 7 continuations per prompt unless told otherwise: set "stopHookBlockingCap": 100 in its settings (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100) so a long list can finish; boulder\'s own budgets still bound every run.',
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
		'set "stopHookBlockingCap": 100 in ~/.qwen/settings.json or the project\'s .qwen/settings.json (or QWEN_CODE_STOP_HOOK_BLOCK_CAP=100)',
	capOk: (cap: number) => `Qwen Code honours ${cap - 1} continuations per prompt (stopHookBlockingCap ${cap})`,
};
