/**
 * What the Copilot CLI adapter says to people: the installer's and doctor's
 * messages. Copilot's agentStop has no channel for a notice to the user, so
 * there are no hook notices here; the nudges themselves are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

/** Why a nudge was not sent: Copilot ends the turn by itself after this many agentStop blocks in a row. */
export const INSTALL_TEXT = {
	...hooksInstallText("Copilot CLI", {
		restart:
			"Copilot CLI reads hooks when a session starts: restart running sessions to pick them up. In prompt mode (-p) it runs a project's hooks only with --trust-folder; your user hooks always run.",
		ownFile: true,
	}),
	notOurs: (file: string) =>
		`${file} holds hooks that are not boulder's; boulder did not touch it. Rename it (Copilot reads every *.json in that folder) and run the command again.`,
	portable: (link: string | null, root: string) =>
		portableHooksNote({ onPath: "boulder-hook", linked: { link, root }, notice: false }),
	autopilot:
		"Do not also run Copilot's own --autopilot (or /autopilot) in these sessions: two continuation loops would nudge the same agent.",
};

export const DOCTOR_TEXT = {
	...hooksDoctorText("Copilot CLI"),
	notInstalled: "boulder's Copilot CLI hooks are not in this project's .github/hooks or your user hooks folder",
	installFix: "`boulder install copilot` adds them, if you use Copilot CLI here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as boulder's hooks file (${problem}); Copilot will not run boulder from it`,
	unreadableFix: "fix the file, or move it away and run `boulder install copilot` again",
	otherVersion: (file: string, installed: string, where: string, version: string) =>
		`the hooks in ${file} run boulder ${installed} (${where}); this is ${version}: two versions would share one state folder`,
	pinnedOk: (file: string, version: string, events: number) =>
		`hooks installed in ${file} (pinned to boulder ${version}, ${events} events; Copilot stops continuing after 8 blocks in a row)`,
	portableOk: (file: string, version: string, where: string) =>
		`hooks installed in ${file} (portable: here they run boulder ${version}, ${where}; Copilot stops continuing after 8 blocks in a row)`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, no link, no boulder-hook on the PATH): they do nothing`,
	linkGone: (link: string, target: string) =>
		`${link} points at ${target}, which does not exist (moved or removed): the hooks fall back to boulder-hook on the PATH`,
};
