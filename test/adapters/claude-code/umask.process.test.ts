/**
 * Under `umask 000`, what every portable hook executes (the link files under
 * `$XDG_DATA_HOME/boulder`) and the V8 code cache every hook loads must still
 * be the user's alone: files 0600, folders 0700.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../state/helpers.js";
import { tempDir } from "./helpers.js";

const modeOf = (file: string) => statSync(file).mode & 0o777;

function underUmask000(command: string, env: NodeJS.ProcessEnv, cwd: string, input = "") {
	return spawnSync("/bin/sh", ["-c", `umask 000; ${command}`], { cwd, env, input, encoding: "utf8" });
}

let dir: string;
let env: NodeJS.ProcessEnv;
let project: string;

beforeAll(async () => {
	dir = await tempDir("boulder-umask-");
	project = path.join(dir, "project");
	await mkdir(path.join(project, ".git"), { recursive: true });
	env = {
		HOME: path.join(dir, "home"),
		XDG_DATA_HOME: path.join(dir, "data"),
		XDG_CACHE_HOME: path.join(dir, "cache"),
		BOULDER_STATE_HOME: path.join(dir, "state"),
		PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
	};
});

describe("under umask 000", () => {
	it("install makes the hook link files 0600 in a 0700 folder", () => {
		for (const harness of ["claude-code", "gemini"]) {
			const ran = underUmask000(
				`node ${path.join(repoRoot, "bin", "boulder.js")} install ${harness} --project`,
				env,
				project,
			);
			expect(ran.status, ran.stderr).toBe(0);
		}
		const folder = path.join(dir, "data", "boulder");
		const links = readdirSync(folder).filter((name) => name.endsWith(".cjs"));
		expect(links.length).toBeGreaterThan(0);
		expect(modeOf(folder)).toBe(0o700);
		for (const name of links) expect([name, modeOf(path.join(folder, name))]).toEqual([name, 0o600]);
	});

	it("a hook run writes its code cache 0600 in 0700 folders", () => {
		const hook = path.join(repoRoot, "dist", "hook", "claude-code.cjs");
		const ran = underUmask000(`node ${hook} SessionStart`, env, project, "{}");
		expect(ran.status, ran.stderr).toBe(0);
		const cacheRoot = path.join(dir, "cache", "boulder");
		const files: string[] = [];
		const walk = (at: string) => {
			expect([at, modeOf(at)]).toEqual([at, 0o700]);
			for (const entry of readdirSync(at, { withFileTypes: true })) {
				const full = path.join(at, entry.name);
				if (entry.isDirectory()) walk(full);
				else files.push(full);
			}
		};
		walk(cacheRoot);
		expect(files.length).toBeGreaterThan(0);
		for (const file of files) expect([file, modeOf(file)]).toEqual([file, 0o600]);
	});
});
