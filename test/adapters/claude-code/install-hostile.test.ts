/**
 * What an installer does with a settings file that is not a plain, writable,
 * well-formed file of the user's: a link is written through, a read-only file
 * is refused, a change made while installing is not overwritten, duplicate
 * `hooks` keys are refused by install and uninstall alike, too-deep or
 * too-large files are refused with a message naming them, and backups never
 * land inside a git worktree.
 */
import { lstatSync } from "node:fs";
import { chmod, mkdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { installClaudeCode, ourEntries, uninstallClaudeCode } from "../../../src/adapters/claude-code/install.js";
import {
	backupFile,
	backupFolder,
	MAX_CONFIG_BYTES,
	readConfigText,
	writeConfigText,
} from "../../../src/adapters/shared/config-file.js";
import type { HookProgram } from "../../../src/adapters/shared/hook-form.js";
import { MAX_JSON_DEPTH } from "../../../src/adapters/shared/settings-json.js";
import { tempDir } from "./helpers.js";

let dir: string;
let program: HookProgram;
let cwd: string;
let settings: string;
const env = () => ({ HOME: path.join(dir, "home") });

beforeEach(async () => {
	dir = await tempDir("boulder-install-hostile-");
	const bundle = path.join(dir, "pkg", "dist", "hook", "claude-code.cjs");
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook");
	program = { node: "/usr/local/bin/node", bundle, version: "1.2.3" };
	cwd = path.join(dir, "proj");
	settings = path.join(cwd, ".claude", "settings.json");
	await mkdir(path.dirname(settings), { recursive: true });
});

describe("a symlinked settings file", () => {
	it("gets the hooks in the link's target, and stays a link", async () => {
		const dotfile = path.join(dir, "dotfiles", "claude.json");
		await mkdir(path.dirname(dotfile), { recursive: true });
		await writeFile(dotfile, '{ "model": "opus" }\n');
		await symlink(dotfile, settings);

		await installClaudeCode({ scope: "project", cwd, env: env(), program });

		expect(lstatSync(settings).isSymbolicLink()).toBe(true);
		expect(await readlink(settings)).toBe(dotfile);
		const written = JSON.parse(await readFile(dotfile, "utf8"));
		expect(written.model).toBe("opus");
		expect(ourEntries(written).length).toBeGreaterThan(0);

		await uninstallClaudeCode({ scope: "project", cwd, env: env() });
		expect(lstatSync(settings).isSymbolicLink()).toBe(true);
		expect(JSON.parse(await readFile(dotfile, "utf8"))).toEqual({ model: "opus" });
	});
});

describe("a read-only settings file", () => {
	it("is refused with a message, and left exactly as it was", async () => {
		await writeFile(settings, '{ "model": "opus" }\n');
		await chmod(settings, 0o444);
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(
			`${settings} is read-only (mode 0444)`,
		);
		expect(await readFile(settings, "utf8")).toBe('{ "model": "opus" }\n');
		expect((await stat(settings)).mode & 0o777).toBe(0o444);
	});
});

describe("a settings file changed while installing", () => {
	it("is not overwritten: the write is refused and the other program's change kept", async () => {
		await writeFile(settings, '{ "model": "opus" }\n');
		const read = await readConfigText(settings);
		// The harness (or the user's editor) writes between the installer's read and its rename.
		await writeFile(settings, '{ "model": "sonnet" }\n');
		await expect(writeConfigText(settings, read, '{ "model": "opus", "hooks": {} }\n', { env: env() })).rejects.toThrow(
			`${settings} changed while boulder was editing it`,
		);
		expect(await readFile(settings, "utf8")).toBe('{ "model": "sonnet" }\n');
		expect((await import("node:fs")).readdirSync(path.dirname(settings))).toEqual(["settings.json"]);
	});
});

describe("duplicate hooks keys", () => {
	const twice = (first: string, last: string) => `{\n  "hooks": ${first},\n  "model": "opus",\n  "hooks": ${last}\n}\n`;

	it("are refused by install, naming the key and its lines", async () => {
		await writeFile(settings, twice("{}", "{}"));
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(
			`"hooks" appears 2 times in ${settings} (lines 2, 4)`,
		);
	});

	it("are refused by uninstall too, instead of saying 'not installed' with live entries left", async () => {
		await installClaudeCode({ scope: "project", cwd, env: env(), program });
		const live = (await readFile(settings, "utf8")).trim();
		const liveHooks = JSON.stringify(JSON.parse(live).hooks);
		const text = twice("{}", liveHooks);
		await writeFile(settings, text);
		await expect(uninstallClaudeCode({ scope: "project", cwd, env: env() })).rejects.toThrow(
			`"hooks" appears 2 times in ${settings}`,
		);
		expect(await readFile(settings, "utf8")).toBe(text);
	});

	it("inside hooks (an event twice) likewise", async () => {
		await writeFile(settings, '{ "hooks": { "Stop": [], "Stop": [] } }\n');
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(
			`"hooks.Stop" appears 2 times in ${settings}`,
		);
		await expect(uninstallClaudeCode({ scope: "project", cwd, env: env() })).rejects.toThrow(
			`"hooks.Stop" appears 2 times`,
		);
	});
});

describe("a settings file no harness would write", () => {
	it("200,000 levels deep is refused with a message naming the file, not a stack overflow", async () => {
		await writeFile(settings, `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(
			new RegExp(`${settings.replaceAll(".", "\\.")} is not valid JSON \\(nested deeper than ${MAX_JSON_DEPTH} levels`),
		);
	});

	it("a bracket inside a string does not count as nesting", async () => {
		await writeFile(settings, JSON.stringify({ model: "[".repeat(MAX_JSON_DEPTH * 2) }));
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).resolves.toMatchObject({
			action: "installed",
		});
	});

	it("larger than the limit is refused, naming the file and the limit", async () => {
		await writeFile(settings, `{"pad":"${"x".repeat(MAX_CONFIG_BYTES)}"}`);
		await expect(readConfigText(settings)).rejects.toThrow(`larger than the 4 MiB boulder reads of a settings file`);
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(settings);
	});

	it("a link to a device is refused, not read", async () => {
		await symlink("/dev/zero", settings);
		await expect(installClaudeCode({ scope: "project", cwd, env: env(), program })).rejects.toThrow(
			`${settings} is a device, not a regular file`,
		);
	});

	it("a folder is refused", async () => {
		await mkdir(settings);
		await expect(readConfigText(settings)).rejects.toThrow(`${settings} is a folder, not a regular file`);
	});
});

describe("install backups", () => {
	it("never land in a git worktree, even when XDG_STATE_HOME points into one", async () => {
		const project = path.join(dir, "repo");
		await mkdir(path.join(project, ".git"), { recursive: true });
		const inside = { HOME: path.join(dir, "home"), XDG_STATE_HOME: path.join(project, "state") };
		expect(backupFolder(inside)).toBe(path.join(dir, "home", ".local", "state", "boulder", "install-backups"));
		await writeFile(settings, '{ "model": "opus" }\n');
		const report = await installClaudeCode({ scope: "project", cwd, env: inside, program });
		expect(report.backup).toBe(backupFile(settings, inside));
		expect(report.backup?.startsWith(project)).toBe(false);
		expect((await stat(report.backup as string)).mode & 0o777).toBe(0o600);
	});

	it("fall back to a private folder in the temp folder when the home folder is a worktree too", async () => {
		const home = path.join(dir, "home");
		await mkdir(path.join(home, ".git"), { recursive: true });
		const folder = backupFolder({ HOME: home, XDG_STATE_HOME: path.join(home, "state") });
		expect(folder.startsWith(path.join(dir, "home"))).toBe(false);
		expect(path.basename(folder)).toBe("install-backups");
	});

	it("refuse a temp-folder fallback that others can write to, rather than leave a copy of the settings there", async () => {
		const home = path.join(dir, "home");
		await mkdir(path.join(home, ".git"), { recursive: true });
		const tmp = path.join(dir, "tmp");
		const before = process.env.TMPDIR;
		process.env.TMPDIR = tmp;
		try {
			const planted = path.join(tmp, `boulder-${process.getuid?.() ?? "user"}`);
			await mkdir(planted, { recursive: true });
			await chmod(planted, 0o777);
			await writeFile(settings, '{ "model": "opus" }\n');
			await expect(
				installClaudeCode({
					scope: "project",
					cwd,
					env: { HOME: home, XDG_STATE_HOME: path.join(home, "s") },
					program,
				}),
			).rejects.toThrow(`${planted} is not a private folder of yours`);
			expect(await readFile(settings, "utf8")).toBe('{ "model": "opus" }\n');
		} finally {
			if (before === undefined) delete process.env.TMPDIR;
			else process.env.TMPDIR = before;
		}
	});
});
