/**
 * A new user's machine for the journey tests: a fresh HOME, an empty git
 * repository as their project, and boulder installed from the packed tarball
 * into a throwaway npm prefix whose `bin/` is first on a PATH that holds
 * nothing else of this repository (no `node_modules/.bin`). Everything the
 * user runs — `boulder`, `claude`, `git` — runs with that environment.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import type { ClaudeSandbox } from "./claude-run.js";
import { type GlobalInstall, installGlobally, type PackedPackage, packedPackage } from "./packed-package.js";

const run = promisify(execFile);

export interface Machine {
	root: string;
	home: string;
	project: string;
	packed: PackedPackage;
	installed: GlobalInstall;
	/** The same folders, as the Claude Code runner takes them. */
	sandbox: ClaudeSandbox;
	/** The user's environment: fresh HOME and XDG folders, the prefix's bin first on the PATH. */
	env: Record<string, string>;
	/** `boulder …` from the PATH, in `cwd` (the project by default). */
	boulder(args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }>;
	git(...args: string[]): Promise<string>;
	dispose(): Promise<void>;
}

/** A PATH with node, git and the system's tools, and nothing from this repository. */
export function plainPath(): string {
	return [dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(delimiter);
}

export async function newMachine(): Promise<Machine> {
	const packed = await packedPackage();
	// realpath: on some systems tmpdir is a symlink, and Claude Code keys transcripts by the real cwd.
	const root = await realpath(await mkdtemp(join(tmpdir(), "boulder-journey-")));
	const home = join(root, "home");
	const project = join(root, "project");
	await mkdir(home, { recursive: true });
	await mkdir(project, { recursive: true });
	const base: Record<string, string> = {
		HOME: home,
		XDG_CONFIG_HOME: join(home, ".config"),
		XDG_CACHE_HOME: join(home, ".cache"),
		XDG_DATA_HOME: join(home, ".local", "share"),
		XDG_STATE_HOME: join(home, ".local", "state"),
		PATH: plainPath(),
		LANG: "C.UTF-8",
		NO_COLOR: "1",
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_AUTHOR_NAME: "Jo User",
		GIT_AUTHOR_EMAIL: "jo@example.invalid",
		GIT_COMMITTER_NAME: "Jo User",
		GIT_COMMITTER_EMAIL: "jo@example.invalid",
	};
	const installed = await installGlobally(packed.tarball, join(root, "npm-prefix"));
	const env = { ...base, PATH: `${installed.bin}${delimiter}${base.PATH}` };
	const git = async (...args: string[]) =>
		(await run("git", ["-c", "commit.gpgsign=false", ...args], { cwd: project, env })).stdout;
	await git("init", "-q");
	await writeFile(join(project, "README.md"), "# My project\n");
	await git("add", "README.md");
	await git("commit", "-q", "-m", "First commit");
	return {
		root,
		home,
		project,
		packed,
		installed,
		sandbox: { root, home, project, dispose: async () => {} },
		env,
		git,
		async boulder(args, cwd = project) {
			try {
				const { stdout, stderr } = await run("boulder", args, { cwd, env });
				return { code: 0, stdout, stderr };
			} catch (error) {
				const failed = error as { code?: number; stdout?: string; stderr?: string };
				return {
					code: typeof failed.code === "number" ? failed.code : 1,
					stdout: failed.stdout ?? "",
					stderr: failed.stderr ?? "",
				};
			}
		},
		dispose: () => rm(root, { recursive: true, force: true }),
	};
}

/** `boulder …` that must succeed; its stdout. */
export async function boulderOk(machine: Machine, args: string[], cwd?: string): Promise<string> {
	const result = await machine.boulder(args, cwd);
	if (result.code !== 0) {
		throw new Error(`boulder ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
	}
	return result.stdout;
}

/** The absolute paths of this machine a committed file must not contain. */
export function machinePaths(machine: Machine): string[] {
	return [machine.root, machine.home, machine.installed.prefix, dirname(process.execPath), tmpdir()];
}

export async function readText(file: string): Promise<string> {
	return readFile(file, "utf8");
}
