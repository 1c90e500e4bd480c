/** Runs the real `bin/boulder.js` (after `npm run build`) as a person would, in a test's project and environment. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const BOULDER_BIN = fileURLToPath(new URL("../../../bin/boulder.js", import.meta.url));

/** Where the CLI runs: the project, and the environment whose HOME and state folders the hooks also see. */
export interface CliPlace {
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

export async function runBoulder(args: string[], options: CliPlace): Promise<CliRun> {
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [BOULDER_BIN, ...args], options);
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

/** Like `runBoulder`, but a non-zero exit fails the test with the command's stderr. */
export async function runBoulderOk(args: string[], options: CliPlace): Promise<string> {
	const result = await runBoulder(args, options);
	if (result.code !== 0) throw new Error(`boulder ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
	return result.stdout;
}

/**
 * `boulder …` and `boulderOk …` for a suite whose place is made per test:
 * `place` is read at each call, so it may name a sandbox created later.
 */
export function boulderIn(place: () => CliPlace): {
	boulder: (...args: string[]) => Promise<CliRun>;
	boulderOk: (...args: string[]) => Promise<string>;
} {
	return {
		boulder: (...args) => runBoulder(args, place()),
		boulderOk: (...args) => runBoulderOk(args, place()),
	};
}
