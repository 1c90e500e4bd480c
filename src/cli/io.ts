/**
 * What the CLI talks to: two output streams, the environment and the folder
 * it runs in. `main` takes them as an argument so tests drive it in-process
 * with captured output.
 */
import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

export interface Output {
	write(chunk: string): unknown;
	/** Only a terminal gets colours. */
	isTTY?: boolean;
}

export interface CliIO {
	stdout: Output;
	stderr: Output;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

export function processIO(): CliIO {
	return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/**
 * Colours only for a terminal, and never when NO_COLOR is set (any non-empty
 * value, as no-color.org asks); FORCE_COLOR turns them on for a pipe.
 */
export function colorsFor(output: Output, env: NodeJS.ProcessEnv): Colors {
	if (env.NO_COLOR) return pc.createColors(false);
	if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return pc.createColors(true);
	return pc.createColors(output.isTTY === true);
}

/** For machine output (`--json`) and tests: every formatter returns its input. */
export const plainColors: Colors = pc.createColors(false);
