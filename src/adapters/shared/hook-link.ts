/**
 * The per-user link the portable hook commands look for
 * (`shared/portable-command.ts`): a few lines under `$XDG_DATA_HOME` (default
 * `~/.local/share`) that run the hook program of one copy of boulder, or,
 * when that copy is gone, let the agent be (with a notice where the harness
 * shows one) rather than fail on every event. `boulder install <harness>
 * --project` writes it, unless the project has boulder as a devDependency,
 * which the commands run first.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PACKAGE_NAME, samePath } from "./config-file.js";
import { BOULDER_HOOK_BUNDLE } from "./hook-form.js";

export interface HookLink {
	/** Relative to `$XDG_DATA_HOME`: `boulder/claude-code-hook.cjs`. */
	link: string;
	/** The hook program, relative to the package root: `dist/hook/claude-code.cjs`. */
	bundle: string;
	/** The first line's comment: which command wrote it, for whom. */
	writtenBy: string;
	/** What to print, for one event, when the copy is gone (JSON the harness shows the user); none: nothing. */
	notice?: { event: string; output: string };
}

/** The link's file, as the shell computes it: `${XDG_DATA_HOME:-$HOME/.local/share}/<link>`. */
export function hookLinkFile(env: NodeJS.ProcessEnv, link: string): string {
	return path.join(env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share"), link);
}

/** What the link holds, for the hook program `bundle` (absolute). */
export function hookLinkText(bundle: string, spec: Pick<HookLink, "writtenBy" | "notice">): string {
	const lines = [`// ${spec.writtenBy}`, `const hook = ${JSON.stringify(bundle)};`];
	if (spec.notice) {
		lines.push(
			'if (require("node:fs").existsSync(hook)) require(hook);',
			`else if (process.argv[2] === ${JSON.stringify(spec.notice.event)}) console.log(${JSON.stringify(spec.notice.output)});`,
		);
	} else {
		lines.push('if (require("node:fs").existsSync(hook)) require(hook);');
	}
	return [...lines, ""].join("\n");
}

/** The hook program a link runs, read back from its text; null when the text is not a link boulder wrote. */
export function hookLinkTarget(text: string): string | null {
	const match = /^const hook = ("(?:[^"\\]|\\.)*");$/m.exec(text);
	if (!match?.[1]) return null;
	try {
		const target: unknown = JSON.parse(match[1]);
		return typeof target === "string" ? target : null;
	} catch (error) {
		if (error instanceof SyntaxError) return null;
		throw error;
	}
}

/** The copy of boulder a project has as a devDependency, which the portable commands run first. */
export function projectPackage(cwd: string): string {
	return path.join(cwd, "node_modules", PACKAGE_NAME);
}

/**
 * Points the user's link at the hook program `bundle` (absolute), unless the
 * project has its own boulder (which the commands run first). Returns the
 * link, or null when none was needed.
 */
export async function linkForUser(
	place: { cwd: string; env: NodeJS.ProcessEnv },
	spec: HookLink,
	bundle: string,
): Promise<string | null> {
	const own = path.join(projectPackage(place.cwd), spec.bundle);
	if (existsSync(own) && samePath(own, bundle)) return null;
	const link = hookLinkFile(place.env, spec.link);
	const text = hookLinkText(bundle, spec);
	// Owner-only whatever the umask: every portable hook runs this file.
	await mkdir(path.dirname(link), { recursive: true, mode: 0o700 });
	await narrowToOwner(path.dirname(link), 0o700);
	if ((await readFile(link, "utf8").catch(() => null)) === text) {
		await narrowToOwner(link, 0o600);
		return link;
	}
	const temp = `${link}.${process.pid}.tmp`;
	// Left by a killed install that had this pid; "wx" below must not trip on it.
	await rm(temp, { force: true });
	await writeFile(temp, text, { mode: 0o600, flag: "wx" });
	await chmod(temp, 0o600);
	await rename(temp, link);
	return link;
}

/** Takes away group and others' write (an earlier install under `umask 000` left it open). */
async function narrowToOwner(file: string, mode: number): Promise<void> {
	const found = await stat(file);
	if ((found.mode & 0o022) !== 0) await chmod(file, mode);
}

/**
 * The link to `boulder-hook`, the one hook program of the command-hook
 * harnesses (Gemini CLI, Copilot CLI): one link serves them all, so its words
 * name none of them.
 */
export const BOULDER_HOOK_LINK: HookLink = {
	link: "boulder/boulder-hook.cjs",
	bundle: BOULDER_HOOK_BUNDLE,
	writtenBy:
		"Written by `boulder install <harness> --project`: the portable hooks of boulder-hook run the boulder at this path.",
};
