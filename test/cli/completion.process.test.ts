/**
 * The completion scripts are valid in their shells: each goes through the
 * shell's own syntax check (`bash -n`, and `zsh -n`, `fish -n` where those
 * shells are installed), and bash's completes the commands and harness names.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../src/adapters/registry.js";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { sandbox } from "./helpers.js";

function has(shell: string): boolean {
	return spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;
}

async function script(shell: string): Promise<string> {
	const s = await sandbox();
	const ran = await s.run(["completion", shell]);
	expect(ran.code).toBe(0);
	const file = path.join(s.root, `boulder.${shell}`);
	await writeFile(file, ran.stdout);
	return file;
}

describe("shell completion scripts", () => {
	it("bash: passes bash -n, and completes commands, options and harness names", async () => {
		const file = await script("bash");
		expect(spawnSync("bash", ["-n", file]).status).toBe(0);
		const complete = (words: string[]) =>
			execFileSync(
				"bash",
				[
					"-c",
					`source "$0"; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length - 1}; _boulder_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
					file,
				],
				{ encoding: "utf8" },
			)
				.trim()
				.split("\n");
		expect(complete(["boulder", ""])).toEqual(expect.arrayContaining(COMMANDS.map((entry) => entry.name)));
		expect(complete(["boulder", "install", ""])).toEqual(ADAPTERS.map((adapter) => adapter.name));
		expect(complete(["boulder", "start", "--o"])).toEqual(["--orchestrate"]);
	});

	it.runIf(has("zsh"))("zsh: passes zsh -n", async () => {
		expect(spawnSync("zsh", ["-n", await script("zsh")]).status).toBe(0);
	});

	it.runIf(has("fish"))("fish: passes fish -n", async () => {
		expect(spawnSync("fish", ["-n", await script("fish")]).status).toBe(0);
	});
});
