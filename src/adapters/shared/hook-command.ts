/**
 * Reading back the hook commands boulder installs in a harness's config:
 * pinned, `<node> <program> [<harness>] <event> --boulder-hook=<version>`,
 * or portable, a finder that ends in `[<harness>] <event>
 * --boulder-hook=portable` and names boulder's program on the PATH. Anything
 * else is someone else's command.
 */
import { HAND_OVER } from "./hook-form.js";
import { shellWords } from "./shell-words.js";

/** A command boulder installed, read back. */
export type OurCommand =
	| {
			form: "pinned";
			event: string;
			version: string;
			/** The words before the event: the node binary and the hook program, unquoted. */
			node: string;
			bundle: string;
	  }
	| { form: "portable"; event: string };

export interface CommandWords {
	/** The harness's name in the hook program's arguments (`codex`, `copilot`); null: none (Claude Code's own program). */
	harness: string | null;
	/** The marker every command carries: `--boulder-hook`. */
	marker: string;
	/** The marker's value in portable commands. */
	portableTag: string;
	/** The program on the PATH a portable command names. */
	bin: string;
}

/** A reader of the commands boulder installs for one harness; null for anyone else's. */
export function ourCommandReader(words: CommandWords): (command: unknown) => OurCommand | null {
	const pinnedHarness = words.harness === null ? "" : `\\s+${words.harness}`;
	const portableLead = words.harness === null ? "\\s" : `\\s${words.harness} `;
	const pinned = new RegExp(`^(.*)${pinnedHarness}\\s+(\\w+)\\s+${words.marker}=(\\S+)\\s*$`);
	const portable = new RegExp(`${portableLead}(\\w+) ${words.marker}=${words.portableTag}[;\\s]`);
	return (command) => {
		if (typeof command !== "string" || !command.includes(words.marker)) return null;
		const found = portable.exec(command);
		if (found && command.includes(words.bin)) return { form: "portable", event: found[1] ?? "" };
		const match = pinned.exec(command.startsWith(`${HAND_OVER} `) ? command.slice(HAND_OVER.length + 1) : command);
		if (!match) return null;
		const program = shellWords(match[1] ?? "");
		if (program.length !== 2) return null;
		return {
			form: "pinned",
			node: program[0] ?? "",
			bundle: program[1] ?? "",
			event: match[2] ?? "",
			version: match[3] ?? "",
		};
	};
}
