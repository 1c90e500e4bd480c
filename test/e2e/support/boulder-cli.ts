/** Runs the real `bin/boulder.js` (after `npm run build`) as a person would, in a test's project and environment. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const BOULDER_BIN = fileURLToPath(new URL("../../../bin/boulder.js", import.meta.url));

export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

export async function runBoulder(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliRun> {
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, [BOULDER_BIN, ...args], options);
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

/** Like `runBoulder`, but a non-zero exit fails the test with the command's stderr. */
export async function runBoulderOk(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
	const result = await runBoulder(args, options);
	if (result.code !== 0) throw new Error(`boulder ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
	return result.stdout;
}
