/**
 * Shell completion scripts for bash, zsh and fish, written from the
 * commander program itself (`completionSpec`), so they list exactly the
 * commands and options `boulder` has and cannot drift from it. Pure: the
 * spec in, the script's text out.
 */
import type { Command } from "commander";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export interface CompletionOption {
	/** `-n`, `--lines`. */
	flags: string[];
	takesValue: boolean;
	description: string;
}

export interface CompletionCommand {
	name: string;
	description: string;
	options: CompletionOption[];
	/** Words the first argument takes (harness names); empty: files. */
	values: string[];
}

/** The program's subcommands as completion data; `values` names the words each command's first argument takes. */
export function completionSpec(program: Command, values: Record<string, string[]> = {}): CompletionCommand[] {
	return program.commands.map((command) => ({
		name: command.name(),
		description: command.description(),
		options: [...command.options, helpOption()].map((option) => ({
			flags: [option.short, option.long].filter((flag): flag is string => typeof flag === "string"),
			takesValue: option.required || option.optional,
			description: option.description,
		})),
		values: values[command.name()] ?? [],
	}));
}

function helpOption() {
	return { short: "-h", long: "--help", required: false, optional: false, description: "show help for a command" };
}

export function completionScript(shell: Shell, commands: readonly CompletionCommand[]): string {
	switch (shell) {
		case "bash":
			return bashScript(commands);
		case "zsh":
			return zshScript(commands);
		case "fish":
			return fishScript(commands);
	}
}

/** A word safe inside single quotes in all three shells: only letters, digits and `-_.`. */
function word(text: string): string {
	if (!/^[A-Za-z0-9_.-]+$/.test(text)) throw new Error(`not a plain word for a completion script: ${text}`);
	return text;
}

/**
 * A description safe in every script's quotes: an apostrophe becomes ’,
 * brackets parentheses, a colon a comma (zsh reads both), and backticks,
 * double quotes, backslashes and dollars go.
 */
function plain(text: string): string {
	return text
		.replace(/'/g, "\u2019")
		.replace(/\[/g, "(")
		.replace(/\]/g, ")")
		.replace(/:/g, ",")
		.replace(/[`"\\$]/g, "")
		.replace(/\s+/g, " ")
		.trim();
}

function bashScript(commands: readonly CompletionCommand[]): string {
	const cases = commands.map((command) => {
		const flags = command.options.flatMap((option) => option.flags.map(word)).join(" ");
		const valued = command.options
			.filter((option) => option.takesValue)
			.flatMap((option) => option.flags.map(word))
			.join("|");
		return [
			`		${word(command.name)})`,
			`			opts="${flags}"`,
			`			args="${command.values.map(word).join(" ")}"`,
			valued ? `			case "$prev" in ${valued}) return 0 ;; esac` : "",
			"			;;",
		]
			.filter(Boolean)
			.join("\n");
	});
	return `# boulder completion for bash. Load it with: source <(boulder completion bash)
_boulder_complete() {
	local cur prev opts args
	cur="\${COMP_WORDS[COMP_CWORD]}"
	prev="\${COMP_WORDS[COMP_CWORD-1]}"
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "${commands.map((command) => word(command.name)).join(" ")} -h --help -v --version" -- "$cur"))
		return 0
	fi
	opts=""
	args=""
	case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
		*) return 0 ;;
	esac
	if [[ "$cur" == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [ -n "$args" ] && [ "$COMP_CWORD" -eq 2 ]; then
		COMPREPLY=($(compgen -W "$args" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
	return 0
}
complete -o default -F _boulder_complete boulder
`;
}

function zshScript(commands: readonly CompletionCommand[]): string {
	const described = commands.map((command) => `		'${word(command.name)}:${plain(command.description)}'`);
	const cases = commands.map((command) => {
		const specs = command.options.flatMap((option) =>
			option.flags.map((flag) => `'${word(flag)}[${plain(option.description)}]${option.takesValue ? ":value: " : ""}'`),
		);
		const rest = command.values.length > 0 ? `'1:harness:(${command.values.map(word).join(" ")})'` : "'*:file:_files'";
		return `		${word(command.name)})\n			_arguments ${[...specs, rest].join(" ")}\n			;;`;
	});
	return `#compdef boulder
# boulder completion for zsh. Put it on your $fpath as _boulder, or: source <(boulder completion zsh)
_boulder() {
	local -a commands
	commands=(
${described.join("\n")}
	)
	if (( CURRENT == 2 )); then
		_describe 'command' commands
		return
	fi
	local command="$words[2]"
	shift words
	(( CURRENT-- ))
	case "$command" in
${cases.join("\n")}
	esac
}
if [ "$funcstack[1]" = "_boulder" ]; then
	_boulder "$@"
else
	compdef _boulder boulder
fi
`;
}

function fishScript(commands: readonly CompletionCommand[]): string {
	const names = commands.map((command) => word(command.name)).join(" ");
	const lines = [
		"# boulder completion for fish. Save it as ~/.config/fish/completions/boulder.fish",
		"complete -c boulder -f",
		`complete -c boulder -n 'not __fish_seen_subcommand_from ${names}' -s h -l help -d 'show help'`,
		`complete -c boulder -n 'not __fish_seen_subcommand_from ${names}' -s v -l version -d 'print the version'`,
	];
	for (const command of commands) {
		const name = word(command.name);
		lines.push(
			`complete -c boulder -n 'not __fish_seen_subcommand_from ${names}' -a ${name} -d '${plain(command.description)}'`,
		);
		const when = `-n '__fish_seen_subcommand_from ${name}'`;
		for (const option of command.options) {
			const flags = option.flags
				.map((flag) => (flag.startsWith("--") ? `-l ${word(flag.slice(2))}` : `-s ${word(flag.slice(1))}`))
				.join(" ");
			lines.push(
				`complete -c boulder ${when} ${flags}${option.takesValue ? " -r" : ""} -d '${plain(option.description)}'`,
			);
		}
		if (command.values.length > 0) {
			lines.push(`complete -c boulder ${when} -a '${command.values.map(word).join(" ")}'`);
		} else {
			lines.push(`complete -c boulder ${when} -F`);
		}
	}
	return `${lines.join("\n")}\n`;
}
