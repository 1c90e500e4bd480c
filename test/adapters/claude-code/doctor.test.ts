import { chmod, mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { HOOK_BIN } from "../../../src/adapters/claude-code/dialect.js";
import { checkClaudeCodeHooks, claudeCodeDoctorCheck } from "../../../src/adapters/claude-code/doctor.js";
import { hookLinkFile, installClaudeCode, settingsFile } from "../../../src/adapters/claude-code/install.js";
import { type HookProgram, PORTABLE } from "../../../src/adapters/shared/hook-form.js";
import { tempDir } from "./helpers.js";

let dir: string;
let place: { cwd: string; env: NodeJS.ProcessEnv };
let program: HookProgram;
let pkg: string;

/** A built copy of boulder at `root`, of `version`. */
async function boulderCopy(root: string, version: string): Promise<string> {
	const bundle = path.join(root, "dist", "hook", "claude-code.cjs");
	await mkdir(path.dirname(bundle), { recursive: true });
	await writeFile(bundle, "// the hook");
	await writeFile(path.join(root, "package.json"), JSON.stringify({ name: "boulder-agent", version }));
	return bundle;
}

beforeEach(async () => {
	dir = await tempDir("boulder-doctor-");
	// The todo tools on, as `--todo-tools` leaves them: the tests of that finding turn them off.
	place = {
		cwd: path.join(dir, "proj"),
		env: { HOME: path.join(dir, "home"), PATH: "", CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
	};
	await mkdir(place.cwd);
	pkg = path.join(dir, "pkg");
	program = { node: process.execPath, bundle: await boulderCopy(pkg, "1.2.3"), version: "1.2.3" };
});

const check = () => checkClaudeCodeHooks(place, "1.2.3");

/** A `claude` on the PATH inside an npm package of `version`, as `npm install -g` lays it out. */
async function claudeOnPath(version: string): Promise<string> {
	const pkgDir = path.join(dir, "global", "node_modules", "@anthropic-ai", "claude-code");
	await mkdir(path.join(pkgDir, "bin"), { recursive: true });
	await writeFile(path.join(pkgDir, "package.json"), JSON.stringify({ name: "@anthropic-ai/claude-code", version }));
	await writeFile(path.join(pkgDir, "bin", "claude.exe"), "#!/bin/sh\n");
	await chmod(path.join(pkgDir, "bin", "claude.exe"), 0o755);
	const bin = path.join(dir, "global", "bin");
	await mkdir(bin, { recursive: true });
	await symlink(path.join(pkgDir, "bin", "claude.exe"), path.join(bin, "claude"));
	return bin;
}

describe("boulder doctor and Claude Code's todo tools", () => {
	it("warns, with the command, when hooks are installed but nothing turns the todo tools on", async () => {
		await installClaudeCode({ scope: "local", ...place, program });
		delete place.env.CLAUDE_CODE_ENABLE_TODO_TOOLS;

		const findings = await check();

		expect(findings).toContainEqual(
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/CLAUDE_CODE_ENABLE_TODO_TOOLS=1/),
				fix: "`boulder install claude-code --local --todo-tools`",
			}),
		);
	});

	it("says nothing of them once a settings file turns them on, or for a Claude Code older than 2.1.233", async () => {
		await installClaudeCode({ scope: "local", ...place, program, todoTools: true });
		delete place.env.CLAUDE_CODE_ENABLE_TODO_TOOLS;
		expect((await check()).filter((finding) => finding.level !== "ok")).toEqual([]);

		await installClaudeCode({ scope: "user", ...place, program });
		await writeFile(settingsFile("local", place), "{}\n");
		place.env.PATH = await claudeOnPath("2.1.197");
		expect((await check()).some((finding) => finding.message.includes("TODO_TOOLS"))).toBe(false);
	});
});

describe("boulder doctor and the Claude Code version boulder was tested with", () => {
	it("warns, naming both versions, when the installed Claude Code is newer than the newest tested", async () => {
		place.env.PATH = await claudeOnPath("2.1.999");

		const findings = await claudeCodeDoctorCheck.run(place);

		expect(findings).toContainEqual(
			expect.objectContaining({
				check: "claude-code",
				level: "warn",
				message: expect.stringMatching(/Claude Code 2\.1\.999 is installed.*tested with \(2\.1\.332\)/),
			}),
		);
	});

	it("says nothing for the tested version or an older one, nor when no claude is on the PATH", async () => {
		expect((await claudeCodeDoctorCheck.run(place)).some((finding) => finding.message.includes("tested with"))).toBe(
			false,
		);
		place.env.PATH = await claudeOnPath("2.1.332");
		expect((await claudeCodeDoctorCheck.run(place)).some((finding) => finding.message.includes("tested with"))).toBe(
			false,
		);
	});
});

describe("boulder doctor's Claude Code check", () => {
	it("says, without alarm, when the hooks are not installed", async () => {
		const findings = await check();

		expect(findings).toEqual([expect.objectContaining({ level: "ok", message: expect.stringMatching(/not in/) })]);
	});

	it("says where the hooks are installed when they are current", async () => {
		await installClaudeCode({ ...place, scope: "local", program });

		const findings = await check();

		expect(findings).toEqual([
			expect.objectContaining({
				level: "ok",
				file: settingsFile("local", place),
				message: expect.stringMatching(/pinned to boulder 1\.2\.3/),
			}),
		]);
	});

	it("warns when the hooks run another version of boulder, and says the command that fixes it", async () => {
		await installClaudeCode({ ...place, scope: "local", program });
		await boulderCopy(pkg, "0.9.0");

		const [finding] = await check();

		expect(finding).toMatchObject({
			level: "warn",
			message: expect.stringMatching(/run boulder 0\.9\.0 .*; this is 1\.2\.3/),
			fix: "`boulder install claude-code --local`",
		});
	});

	it("reports hooks whose program is gone (moved or removed) as a problem, with the fix", async () => {
		await installClaudeCode({ ...place, scope: "user", program });
		await rm(pkg, { recursive: true });

		const findings = await check();

		expect(findings).toContainEqual(
			expect.objectContaining({
				level: "problem",
				message: expect.stringContaining(`${program.bundle}, which does not exist (moved or removed)`),
				fix: "`boulder install claude-code --user`",
			}),
		);
	});

	it("warns when boulder runs from two places, so every event runs boulder twice", async () => {
		await installClaudeCode({ ...place, scope: "local", program });
		await installClaudeCode({ ...place, scope: "user", program });

		const findings = await check();

		expect(findings.at(-1)).toMatchObject({
			level: "warn",
			message: expect.stringMatching(/more than one place .*\(local settings, user settings\)/),
			fix: "keep one: `boulder uninstall claude-code --user`",
		});
	});

	it("warns when some of the hooks were taken out by hand", async () => {
		const report = await installClaudeCode({ ...place, scope: "local", program });
		const settings = JSON.parse(await readFile(report.file, "utf8"));
		delete settings.hooks.PreCompact;
		delete settings.hooks.SubagentStop;
		await writeFile(report.file, JSON.stringify(settings));

		const [finding] = await check();

		expect(finding).toMatchObject({ level: "warn", message: expect.stringMatching(/miss SubagentStop, PreCompact$/) });
	});

	it("warns when the watcher is missing under Stop (hooks installed by an older boulder)", async () => {
		const report = await installClaudeCode({ ...place, scope: "local", program });
		const settings = JSON.parse(await readFile(report.file, "utf8"));
		settings.hooks.Stop = settings.hooks.Stop.filter(
			(group: { hooks: { asyncRewake?: boolean }[] }) => !group.hooks[0]?.asyncRewake,
		);
		expect(settings.hooks.Stop).toHaveLength(1);
		await writeFile(report.file, JSON.stringify(settings));

		const [finding] = await check();

		expect(finding).toMatchObject({
			level: "warn",
			message: expect.stringMatching(/miss Stop \(Watchdog\)$/),
			fix: "`boulder install claude-code --local`",
		});
	});

	it("reports a settings file that is not JSON, and reads one that starts with a byte order mark", async () => {
		const file = settingsFile("project", place);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, "{ nope");
		expect((await check())[0]).toMatchObject({ level: "problem", file });

		await writeFile(file, '\uFEFF{"model": "opus"}');
		expect(await check()).toEqual([expect.objectContaining({ level: "ok" })]);
	});
});

describe("boulder doctor on portable hooks (the project's committed settings)", () => {
	const install = () => installClaudeCode({ ...place, scope: "project", program: PORTABLE, root: pkg });

	it("says which boulder they run here: the one linked for the user", async () => {
		await install();

		expect(await check()).toEqual([
			expect.objectContaining({
				level: "ok",
				message: expect.stringMatching(
					/portable: here they run boulder 1\.2\.3, linked for you in .*claude-code-hook\.cjs/,
				),
			}),
		]);
	});

	it("reports that they find no boulder here, with the command that links one", async () => {
		await install();
		await rm(hookLinkFile(place.env));

		expect(await check()).toEqual([
			expect.objectContaining({
				level: "problem",
				message: expect.stringMatching(/find no installed boulder here/),
				fix: "`boulder install claude-code --project`",
			}),
		]);
	});

	it("reports a link to a copy that was moved or removed", async () => {
		await install();
		await rm(pkg, { recursive: true });

		expect(await check()).toContainEqual(
			expect.objectContaining({
				level: "problem",
				message: expect.stringMatching(/claude-code-hook\.cjs points at .*, which does not exist \(moved or removed\)/),
				fix: "`boulder install claude-code --project`",
			}),
		);
	});

	it("warns when the project's devDependency is another version, with the npm command that aligns it", async () => {
		await install();
		await boulderCopy(path.join(place.cwd, "node_modules", "boulder-agent"), "0.9.0");

		expect(await check()).toContainEqual(
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/run boulder 0\.9\.0 \(the project's devDependency/),
				fix: "`npm install --save-dev boulder-agent@1.2.3`",
			}),
		);
	});

	it("warns when a global install on the PATH is another version", async () => {
		await install();
		await rm(hookLinkFile(place.env));
		const other = await boulderCopy(path.join(dir, "global", "lib", "boulder-agent"), "2.0.0");
		await chmod(other, 0o755);
		const bin = path.join(dir, "global", "bin");
		await mkdir(bin);
		await symlink(other, path.join(bin, HOOK_BIN));
		place.env.PATH = bin;

		expect(await check()).toContainEqual(
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/run boulder 2\.0\.0 .*on the PATH/),
				fix: "`npm install --global boulder-agent@1.2.3`",
			}),
		);
	});
});

describe("boulder doctor on Claude Code's boulder plugin", () => {
	async function enablePlugin(folder: string | null): Promise<void> {
		const claude = path.join(place.env.HOME as string, ".claude");
		await mkdir(path.join(claude, "plugins"), { recursive: true });
		await writeFile(
			path.join(claude, "settings.json"),
			JSON.stringify({ enabledPlugins: { "boulder@boulder": true } }),
		);
		const installs = folder === null ? [] : [{ scope: "user", installPath: folder, version: "1.2.3" }];
		await writeFile(
			path.join(claude, "plugins", "installed_plugins.json"),
			JSON.stringify({ version: 2, plugins: { "boulder@boulder": installs } }),
		);
	}

	async function pluginFolder(version: string): Promise<string> {
		const folder = path.join(dir, "plugin-cache", version);
		await mkdir(path.join(folder, ".claude-plugin"), { recursive: true });
		await mkdir(path.join(folder, "hooks"), { recursive: true });
		await writeFile(path.join(folder, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "boulder", version }));
		await writeFile(path.join(folder, "hooks", "hooks.json"), '{"hooks": {"Stop": "… --boulder-hook=portable …"}}');
		return folder;
	}

	it("says it is enabled and which boulder its hooks run here", async () => {
		// The portable install links this copy for the user; only the plugin is left to run it.
		await installClaudeCode({ ...place, scope: "project", program: PORTABLE, root: pkg });
		await rm(settingsFile("project", place));
		await enablePlugin(await pluginFolder("1.2.3"));

		expect(await check()).toEqual([
			expect.objectContaining({
				level: "ok",
				message: expect.stringMatching(/plugin boulder@boulder is enabled \(runs boulder 1\.2\.3/),
			}),
		]);
	});

	it("reports an enabled plugin whose folder is gone, with the command that reinstalls it", async () => {
		await enablePlugin(path.join(dir, "plugin-cache", "gone"));

		expect(await check()).toEqual([
			expect.objectContaining({ level: "problem", fix: "`claude plugin install boulder@boulder`" }),
		]);
	});

	it("warns about a plugin of another version, and about a plugin beside installed hooks", async () => {
		await installClaudeCode({ ...place, scope: "local", program });
		await enablePlugin(await pluginFolder("0.9.0"));

		const findings = await check();

		expect(findings).toContainEqual(
			expect.objectContaining({ level: "warn", fix: "`claude plugin update boulder@boulder`" }),
		);
		expect(findings).toContainEqual(
			expect.objectContaining({
				level: "warn",
				message: expect.stringMatching(/more than one place .*local settings, plugin boulder@boulder/),
				fix: "keep one: `claude plugin uninstall boulder@boulder`",
			}),
		);
	});

	it("reports a plugin that finds no boulder here, with the install command", async () => {
		await enablePlugin(await pluginFolder("1.2.3"));

		expect(await check()).toEqual([
			expect.objectContaining({ level: "problem", fix: "`npm install --global boulder-agent`" }),
		]);
	});
});
