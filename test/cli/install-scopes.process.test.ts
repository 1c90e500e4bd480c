/**
 * `boulder install` / `uninstall` across scopes, for every harness, through
 * the CLI against real files. In the process tier because it needs the build:
 * the installers refuse to point a harness at a `dist/` file that is absent.
 *
 * - uninstall without a scope goes where boulder is (and says which), lists
 *   the scopes and exits 2 when it is in several, and never says "nothing
 *   changed" with exit 0 while boulder stays installed at another scope;
 * - a second install at another scope warns at once;
 * - a project install writes no path of this machine into the project.
 */
import { mkdir, readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADAPTERS, createRegistry } from "../../src/adapters/registry.js";
import { packageRoot } from "../../src/adapters/shared/config-file.js";
import { type Sandbox, sandbox } from "./helpers.js";

const adapters = createRegistry();

async function filesUnder(dir: string): Promise<string[]> {
	const out: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== ".git" && entry.name !== ".boulder") out.push(...(await filesUnder(full)));
		} else out.push(full);
	}
	return out;
}

async function box(): Promise<Sandbox> {
	const s = await sandbox();
	s.env.XDG_DATA_HOME = path.join(s.root, "home", ".local", "share");
	s.env.XDG_STATE_HOME = path.join(s.root, "home", ".local", "state");
	s.env.XDG_CACHE_HOME = path.join(s.root, "home", ".cache");
	return s;
}

describe.each(ADAPTERS.map((adapter) => [adapter.name, adapter] as const))("%s", (name, adapter) => {
	const other = adapter.scopes.find((scope) => scope.name !== adapter.defaultScope)?.name as string;
	const home = adapter.defaultScope;

	it("uninstall without a scope removes boulder from the scope it is in, and says which", async () => {
		const s = await box();
		expect((await s.run(["install", name, `--${other}`], { adapters })).code).toBe(0);

		const removed = await s.run(["uninstall", name], { adapters });

		expect(removed.code, removed.stderr).toBe(0);
		expect(removed.stdout).toContain(`From --${other}:`);
		expect(await adapter.installedScopes({ cwd: s.worktree, env: s.env })).toEqual([]);
		const again = await s.run(["uninstall", name], { adapters });
		expect(again.code).toBe(0);
		expect(again.stdout).toContain(`boulder is not installed for ${adapter.title} at any scope`);
	});

	it("warns at the second install, lists both scopes for a bare uninstall (exit 2), and a wrong scope is not 'nothing changed' with exit 0", async () => {
		const s = await box();
		expect((await s.run(["install", name, `--${other}`], { adapters })).code).toBe(0);
		const second = await s.run(["install", name, `--${home}`], { adapters });
		expect(second.code).toBe(0);
		expect(second.stderr).toContain(`boulder is also installed for ${adapter.title} at --${other}`);

		const ambiguous = await s.run(["uninstall", name], { adapters });
		expect(ambiguous.code).toBe(2);
		expect(ambiguous.stderr).toContain(`--${home} (`);
		expect(ambiguous.stderr).toContain(`--${other} (`);
		expect(await adapter.installedScopes({ cwd: s.worktree, env: s.env })).toHaveLength(2);

		expect((await s.run(["uninstall", name, `--${home}`], { adapters })).code).toBe(0);
		const wrong = await s.run(["uninstall", name, `--${home}`], { adapters });
		expect(wrong.code).toBe(1);
		expect(wrong.stderr).toContain(`still installed for ${adapter.title} at --${other}`);
		expect(wrong.stderr).toContain(`\`boulder uninstall ${name} --${other}\``);

		expect((await s.run(["uninstall", name, "--all"], { adapters })).code).toBe(0);
		expect(await adapter.installedScopes({ cwd: s.worktree, env: s.env })).toEqual([]);
	});

	it.runIf(adapter.scopes.some((scope) => scope.name === "project"))(
		"a project install writes no absolute path of this machine into the project",
		async () => {
			const s = await box();
			const ran = await s.run(["install", name, "--project"], { adapters });
			expect(ran.code, ran.stderr).toBe(0);
			const files = await filesUnder(s.worktree);
			expect(files.length).toBeGreaterThan(0);
			const machinePaths = [s.root, packageRoot(), path.dirname(process.execPath), os.tmpdir(), os.homedir()];
			for (const file of files) {
				const text = await readFile(file, "utf8");
				for (const machinePath of machinePaths)
					expect(text, path.relative(s.worktree, file)).not.toContain(machinePath);
			}
		},
	);
});

describe("one file under two scopes", () => {
	it("in the home folder, Claude Code's project and user settings are one file: said once, no warning, no ambiguity", async () => {
		const s = await box();
		const home = s.env.HOME as string;
		await mkdir(home, { recursive: true });
		expect((await s.run(["install", "claude-code", "--user"], { adapters, cwd: home })).code).toBe(0);
		const again = await s.run(["install", "claude-code", "--project"], { adapters, cwd: home });
		expect(again.stderr).not.toContain("also installed");
		const removed = await s.run(["uninstall", "claude-code"], { adapters, cwd: home });
		expect(removed.code, removed.stderr).toBe(0);
		expect(await adapters.get("claude-code")?.installedScopes({ cwd: home, env: s.env })).toEqual([]);
	});
});
