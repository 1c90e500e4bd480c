/**
 * `boulder completion bash|zsh|fish`: the shell's completion script, written
 * from this very program's commands and options (`../completion.ts`), so it
 * cannot drift from them. `commandsFor` registers every command for it.
 */
import { type Command, InvalidArgumentError } from "commander";
import { completionScript, completionSpec, SHELLS, type Shell } from "../completion.js";
import type { Cli } from "../context.js";
import { EXIT } from "../exit-codes.js";

export function registerCompletion(program: Command, cli: Cli): void {
	program
		.command("completion")
		.description("print a shell completion script for boulder's commands and options")
		.argument("<shell>", SHELLS.join(", "), (value: string) => {
			if (!(SHELLS as readonly string[]).includes(value)) {
				throw new InvalidArgumentError(`expected one of ${SHELLS.join(", ")}, got ${JSON.stringify(value)}`);
			}
			return value;
		})
		.action((shell: Shell) => {
			const harnesses = cli.adapters.names();
			const hooked = cli.adapters.all.filter((adapter) => adapter.hook !== undefined).map((adapter) => adapter.name);
			const spec = completionSpec(program, {
				install: harnesses,
				uninstall: harnesses,
				hook: hooked,
				completion: [...SHELLS],
			});
			cli.io.stdout.write(completionScript(shell, spec));
			cli.exitCode = EXIT.ok;
		});
}
