/**
 * A repository that checks out `.boulder/decisions.jsonl -> ../../.bashrc`
 * (git keeps links): the real hook program, run as Claude Code runs it, must
 * never append to the link's target, must move the link aside, and `boulder
 * doctor` must say what happened.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { mkdir, readdir, readFile, readlink, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { assistantLines, promptLine, SESSION, tempDir, text, writeTranscript } from "./helpers.js";

const BUNDLE = fileURLToPath(new URL("../../../dist/hook/claude-code.cjs", import.meta.url));
const CLI = fileURLToPath(new URL("../../../bin/boulder.js", import.meta.url));
const BASHRC = "# my shell start-up\nexport PATH=$PATH:~/bin\n";

describe.runIf(existsSync(BUNDLE))("a link planted at the decision log", () => {
	it("is never written through by a hook event; the link is moved aside and doctor names it", async () => {
		const home = await tempDir("boulder-planted-");
		const worktree = path.join(home, "clone");
		await mkdir(path.join(worktree, ".git"), { recursive: true });
		await mkdir(path.join(worktree, ".boulder"));
		await writeFile(path.join(home, ".bashrc"), BASHRC);
		await symlink("../../.bashrc", path.join(worktree, ".boulder", "decisions.jsonl"));
		await writeTranscript(worktree, [promptLine("$(touch pwned)"), ...assistantLines("msg_a", [text("Done.")])]);
		const env = {
			HOME: home,
			XDG_CONFIG_HOME: path.join(home, "config"),
			BOULDER_STATE_HOME: path.join(home, "state"),
			PATH: process.env.PATH,
		};
		for (const event of ["SessionStart", "UserPromptSubmit", "Stop"]) {
			const input = {
				session_id: SESSION,
				transcript_path: path.join(worktree, `${SESSION}.jsonl`),
				cwd: worktree,
				hook_event_name: event,
				prompt: "$(touch pwned)",
			};
			const child = spawnSync(process.execPath, [BUNDLE, event], {
				input: JSON.stringify(input),
				env,
				cwd: worktree,
			});
			expect(child.status, child.stderr.toString()).toBe(0);
		}
		expect(await readFile(path.join(home, ".bashrc"), "utf8")).toBe(BASHRC);
		const log = path.join(worktree, ".boulder", "decisions.jsonl");
		expect(lstatSync(log).isFile()).toBe(true);
		const aside = (await readdir(path.join(worktree, ".boulder"))).find((name) =>
			name.startsWith("decisions.jsonl.not-a-file-"),
		);
		expect(aside).toBeDefined();
		expect(await readlink(path.join(worktree, ".boulder", aside as string))).toBe("../../.bashrc");
		expect(await readFile(log, "utf8")).toContain("was a link to ../../.bashrc; moved aside untouched");

		const doctor = spawnSync(process.execPath, [CLI, "doctor"], { env: { ...env, NO_COLOR: "1" }, cwd: worktree });
		expect(doctor.stdout.toString()).toContain(`${aside}`);
		expect(doctor.stdout.toString()).toContain(
			"decisions.jsonl was unreadable (not-a-file: not a regular file) and was moved aside",
		);
	});
});
