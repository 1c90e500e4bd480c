/**
 * What the Codex adapter says to people: the installer's messages, what
 * `boulder doctor` says, and the notice its portable hooks print where no
 * boulder is installed. The nudges themselves are the core's prompts.
 */

import { hooksDoctorText, hooksInstallText, portableHooksNote } from "../shared/install-messages.js";

/**
 * What the portable hooks print at session start where no boulder is
 * installed (a teammate without it): one line, shown to the user, never to
 * the model. It is written into hooks.json inside a single-quoted shell word,
 * so it holds no single quote.
 */
export const NOT_INSTALLED_NOTICE =
	"boulder: this project runs boulder from its Codex hooks, but boulder is not installed here (npm install -g boulder-agent, or add it to the project devDependencies); carrying on without it.";

/** How Codex comes to run hooks, said after every install: it runs none it was not told to trust. */
export const TRUST_NOTE =
	"Codex runs a hook only once you trust it: start `codex` here and review boulder's hooks with /hooks (Codex asks at start-up when hooks are new or changed). `codex exec` silently skips untrusted hooks; `--dangerously-bypass-hook-trust` runs them anyway, for automation you vetted. `boulder doctor` says whether they are trusted.";

/** For a project install: Codex reads a project's .codex folder only in a project it trusts. */
export const PROJECT_TRUST_NOTE =
	'Codex reads this project\'s .codex/hooks.json only once the project itself is trusted (Codex asks the first time you start it here; or set `projects."<this folder>".trust_level = "trusted"` in $CODEX_HOME/config.toml).';

export const INSTALL_TEXT = {
	...hooksInstallText("Codex", { holds: "a hooks object" }),
	portable: (found: string | null) =>
		portableHooksNote({
			onPath: "boulder-hook",
			notice: true,
			here: found
				? `Here they find ${found}.`
				: "Here they find neither yet: add boulder-agent to the project's devDependencies or install it globally.",
		}),
};

/** What `boulder doctor` says about Codex installs. */
export const DOCTOR_TEXT = {
	...hooksDoctorText("Codex"),
	notInstalled: "boulder's Codex hooks are not in this project's .codex/hooks.json or in $CODEX_HOME/hooks.json",
	installFix: "`boulder install codex` adds them, if you use Codex here",
	unreadable: (file: string, problem: string) =>
		`${file} cannot be read as JSON (${problem}); Codex will not run its hooks either`,
	otherVersion: (file: string, installed: string, version: string) =>
		`the hooks in ${file} run boulder ${installed}; this is ${version}: two versions would share one state folder`,
	noneFound: (file: string) =>
		`the hooks in ${file} find no installed boulder here (no devDependency, nothing on the PATH): they print a notice at session start and do nothing else`,
	ok: (file: string, detail: string) => `hooks installed in ${file} (${detail})`,
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
};
