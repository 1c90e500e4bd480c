/**
 * The examples each command's `--help` ends with (1–3 each), and the words
 * for the install scopes: text people read, kept here to be reviewed as text.
 * A test checks every command has examples, and that each starts with its command.
 */

export const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
	start: [
		"boulder start PLAN.md                       # make PLAN.md the active work here",
		'boulder start docs/plan.md --name "v2 api"  # name the work',
		"boulder start PLAN.md --orchestrate         # the session delegates each item to subagents",
	],
	plans: [
		"boulder plans                 # the works' plans and those in .boulder/plans/",
		"boulder plans docs/ NEXT.md",
	],
	status: [
		"boulder status                # this worktree's works",
		"boulder status --all          # every worktree boulder has seen",
		"boulder status --json | jq .",
	],
	pause: ["boulder pause                 # the active work", "boulder pause ship-the-cli"],
	resume: ["boulder resume ship-the-cli   # a paused or abandoned work becomes the active one again"],
	abandon: [
		"boulder abandon               # asks before it gives up the active work",
		"boulder abandon --yes         # in a script",
		"boulder abandon ship-the-cli",
	],
	trust: [
		"boulder trust                 # take on every live work here and approve its verify commands",
		"boulder trust ship-the-cli    # one work, by its id, name or plan path",
	],
	stop: [
		"boulder stop                  # no nudges in this worktree until `boulder go`",
		"boulder stop --session 3f2a   # one session, by its id or a unique start of it",
	],
	go: ["boulder go", "boulder go --session 3f2a --harness claude-code"],
	fleet: [
		"boulder fleet join postgres://boulder@db.internal/fleet?sslmode=require",
		"boulder fleet status --json   # this machine's backlog and the shipper's last error",
		"boulder fleet stop ci-runner-7 --session 3f2a --wait",
	],
	why: [
		"boulder why                   # the last 10 decisions",
		"boulder why --session 3f2a -n 20",
		"boulder why --json",
	],
	log: ["boulder log -n 50", "boulder log --follow          # until Ctrl-C", "boulder log --json | jq .reason"],
	ui: ["boulder ui --open", "boulder ui --port 4567"],
	doctor: ["boulder doctor", "boulder doctor --json"],
	config: [
		"boulder config                # each value and the file it came from",
		"boulder config --json-schema > boulder.config.schema.json",
	],
	install: [
		"boulder install               # which harnesses there are, and which this machine has",
		"boulder install claude-code --project",
		"boulder install opencode",
	],
	uninstall: [
		"boulder uninstall claude-code # from wherever it is installed",
		"boulder uninstall gemini --user",
		"boulder uninstall codex --all",
	],
	hook: ['echo \'{"session_id":"s1"}\' | boulder hook claude-code Stop'],
	completion: [
		"source <(boulder completion bash)            # in ~/.bashrc",
		"boulder completion zsh > ~/.zfunc/_boulder   # a folder on your $fpath",
		"boulder completion fish > ~/.config/fish/completions/boulder.fish",
	],
};

/** One line per scope name for `install --help`; the files of each harness are in the README and `boulder doctor`. */
export const SCOPE_WORDS: Readonly<Record<string, string>> = {
	project: "this project's settings, to commit: no path of this machine in them",
	local: "this project's settings for you only, not committed (Claude Code)",
	user: "your user settings: every project, pinned to this copy of boulder",
};

export function examplesText(name: string): string | null {
	const lines = EXAMPLES[name];
	return lines && lines.length > 0 ? `\nExamples:\n${lines.map((line) => `  ${line}`).join("\n")}` : null;
}
