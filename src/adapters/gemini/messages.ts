/**
 * What the Gemini CLI adapter says to people: why boulder waits in plan mode,
 * the installer's messages and the doctor's. The notices shown in Gemini CLI
 * (`systemMessage`, never sent to the model) are every command-hook
 * harness's (`shared/hook-messages.ts`); the nudges are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

/** Why boulder waits while the agent is in plan mode. */
export const PLAN_MODE_WAIT = "the agent is in plan mode: its plan waits for the user's approval";

export const INSTALL_TEXT = {
	...hooksInstallText("Gemini CLI", {
		restart: "Gemini CLI reads hooks when it starts: restart running sessions to pick them up.",
	}),
	portable: (link: string | null, root: string) =>
		portableHooksNote({ onPath: "boulder-hook", linked: { link, root }, notice: false }),
};

/** What `boulder doctor` says about Gemini CLI installs. */
export const DOCTOR_TEXT = {
	...hooksDoctorText("Gemini CLI"),
	notInstalled: "boulder's Gemini CLI hooks are not in this project's or your user settings",
	installFix: "`boulder install gemini` adds them, if you use Gemini CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Gemini CLI will not read its settings either`,
	twice: (files: string[]) =>
		`boulder's Gemini CLI hooks are in more than one settings file (${files.join(", ")}): every event runs boulder more than once`,
	twiceFix: "`boulder uninstall gemini --user` or `--project` removes one set",
	otherVersion: (file: string, installed: string, version: string) =>
		`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
	reinstall: (scope: string) => `\`boulder install gemini --${scope}\` puts them right`,
	pinnedOk: (file: string, version: string, events: number) =>
		`hooks installed in ${file} (pinned to boulder ${version}, ${events} events); Gemini CLI continues a turn at most 100 times in a row`,
	portableOk: (file: string, where: string) =>
		`hooks installed in ${file} (portable: here they run ${where}); Gemini CLI continues a turn at most 100 times in a row`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, nothing on the PATH): they do nothing`,
	hooksOff: (file: string) => `${file} turns Gemini CLI's hooks off (hooksConfig.enabled: false): boulder never runs`,
	hooksOffFix: 'set "hooksConfig": {"enabled": true} there, or remove the key',
};
