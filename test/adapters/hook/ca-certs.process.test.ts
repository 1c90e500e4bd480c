/**
 * `NODE_EXTRA_CA_CERTS` and the installed hooks: the portable command starts
 * the hook without it (node would read the file before anything else, on
 * every event), and the commands the hook starts get it back as it was. Run
 * through the command `boulder install claude-code --project` writes, with
 * `sh -c`, as Claude Code runs it; the verify command of a finished plan is
 * the child that reports what it got.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { CA_CERTS_HANDOVER } from "../../../src/adapters/shared/hook-form.js";
import { assistantLines, promptLine, SESSION, tempDir, text, writeTranscript } from "../claude-code/helpers.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = path.join(REPO, "bin", "boulder.js");
const BUILT = existsSync(path.join(REPO, "dist", "hook", "claude-code.cjs"));
/** The verify command writes what it was given; `-` for a variable it did not get. */
const REPORT = `node -e "require('fs').writeFileSync('seen.json', JSON.stringify([process.env.NODE_EXTRA_CA_CERTS ?? '-', process.env.${CA_CERTS_HANDOVER} ?? '-']))"`;

let project: string;
let env: NodeJS.ProcessEnv;

/** Installs for `scope` (`--project`: the portable command; `--user`: the pinned one), starts the plan, returns the Stop command. */
async function setUp(scope: "--project" | "--user"): Promise<string> {
	const root = await tempDir("boulder-ca-certs-");
	project = path.join(root, "project");
	const home = path.join(root, "home");
	await mkdir(path.join(project, ".git"), { recursive: true });
	await mkdir(path.join(project, "node_modules"));
	await mkdir(home);
	await symlink(REPO, path.join(project, "node_modules", "boulder-agent"), "junction");
	env = {
		PATH: process.env.PATH,
		HOME: home,
		XDG_CONFIG_HOME: path.join(home, ".config"),
		XDG_DATA_HOME: path.join(home, ".local", "share"),
		XDG_CACHE_HOME: path.join(home, ".cache"),
		BOULDER_STATE_HOME: path.join(home, ".local", "state", "boulder"),
		CLAUDE_PROJECT_DIR: project,
	};
	await writeFile(path.join(project, "plan.md"), `---\nverify: ${REPORT}\n---\n# Ship it\n\n- [x] One\n`);
	const boulder = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args], { cwd: project, env });
	boulder("install", "claude-code", scope);
	boulder("start", "plan.md");
	const folder = scope === "--user" ? home : project;
	const settings = JSON.parse(await readFile(path.join(folder, ".claude", "settings.json"), "utf8"));
	return settings.hooks.Stop[0].hooks[0].command;
}

/** The installed Stop hook, run as Claude Code runs it, with `extra` added to its environment. */
async function stop(stopCommand: string, extra: NodeJS.ProcessEnv) {
	const transcript = await writeTranscript(project, [
		promptLine("Ship it."),
		...assistantLines("msg_a", [text("Done.")]),
	]);
	const input = { session_id: SESSION, transcript_path: transcript, cwd: project, hook_event_name: "Stop" };
	const child = spawnSync("/bin/sh", ["-c", stopCommand], {
		input: JSON.stringify({ ...input, stop_hook_active: false }),
		env: { ...env, ...extra },
		cwd: project,
	});
	const seen = JSON.parse(await readFile(path.join(project, "seen.json"), "utf8")) as [string, string];
	return { stderr: child.stderr.toString(), status: child.status, seen };
}

describe.runIf(BUILT && process.platform !== "win32").each(["--project", "--user"] as const)(
	"the hook installed with %s and NODE_EXTRA_CA_CERTS",
	(scope) => {
		let stopCommand: string;
		beforeEach(async () => {
			stopCommand = await setUp(scope);
		});

		it("starts the hook without the certificates file, and gives it back to the verify command", async () => {
			// A file that is not there: node warns on stderr when it starts with it.
			const missing = path.join(project, "no-such-certs.pem");
			const { stderr, status, seen } = await stop(stopCommand, { NODE_EXTRA_CA_CERTS: missing });

			expect(status).toBe(0);
			expect(stderr).not.toMatch(/extra certs/i);
			expect(seen).toEqual([missing, "-"]);
		});

		it("leaves the variable unset for the verify command when the user never set it", async () => {
			const { status, seen } = await stop(stopCommand, {});

			expect(status).toBe(0);
			expect(seen).toEqual(["-", "-"]);
		});
	},
);
