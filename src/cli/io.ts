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

/** Where a question to the person goes: only a terminal can answer one. */
export interface Input {
	isTTY?: boolean;
	/** Shows `question` and resolves to the line typed. */
	ask(question: string): Promise<string>;
}

export interface CliIO {
	stdout: Output;
	stderr: Output;
	env: NodeJS.ProcessEnv;
	cwd: string;
	/** Absent: nobody can be asked (a test, a pipe). */
	stdin?: Input;
}

export function processIO(): CliIO {
	return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), stdin: stdinInput() };
}

/** The process's stdin; the question is written to stderr, so stdout stays what was asked for. */
function stdinInput(): Input {
	return {
		isTTY: process.stdin.isTTY === true,
		async ask(question) {
			const { createInterface } = await import("node:readline/promises");
			const lines = createInterface({ input: process.stdin, output: process.stderr });
			try {
				return await lines.question(question);
			} finally {
				lines.close();
			}
		},
	};
}

/**
 * Colours only for a terminal that shows them, and never when NO_COLOR is set
 * (any non-empty value, as no-color.org asks) or the terminal is `TERM=dumb`;
 * FORCE_COLOR turns them on for a pipe.
 */
export function colorsFor(output: Output, env: NodeJS.ProcessEnv): Colors {
	if (env.NO_COLOR) return pc.createColors(false);
	if (env.FORCE_COLOR && env.FORCE_COLOR !== "0") return pc.createColors(true);
	if (env.TERM === "dumb") return pc.createColors(false);
	return pc.createColors(output.isTTY === true);
}

/** For machine output (`--json`) and tests: every formatter returns its input. */
export const plainColors: Colors = pc.createColors(false);
