/**
 * The per-user link a portable hook command falls back on: a small file under
 * `$XDG_DATA_HOME/boulder/` that runs one installed copy of boulder's hook
 * program, written by `boulder install <harness> --project` unless the
 * project has boulder as its own devDependency (which the commands run first).
 */
import { existsSync, realpathSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PACKAGE_NAME } from "./config-file.js";

/** The link `name` (`boulder/<file>`) as the shell computes it: `${XDG_DATA_HOME:-$HOME/.local/share}/<name>`. */
export function userLinkFile(env: NodeJS.ProcessEnv, name: string): string {
	return path.join(env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share"), name);
}

/** The copy of boulder a project has as a devDependency, which the portable commands run first. */
export function projectPackage(cwd: string): string {
	return path.join(cwd, "node_modules", PACKAGE_NAME);
}

/**
 * Points `link` at `bundle` (writing `text`), unless the project's own copy of
 * boulder is that bundle. Returns the link, or null when none was needed.
 */
export async function linkForUser(
	cwd: string,
	bundleInPackage: string,
	bundle: string,
	link: string,
	text: string,
): Promise<string | null> {
	const own = path.join(projectPackage(cwd), bundleInPackage);
	if (existsSync(own) && samePath(own, bundle)) return null;
	if ((await readFile(link, "utf8").catch(() => null)) === text) return link;
	await mkdir(path.dirname(link), { recursive: true });
	const temp = `${link}.${process.pid}.tmp`;
	await writeFile(temp, text);
	await rename(temp, link);
	return link;
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

function samePath(a: string, b: string): boolean {
	try {
		return realpathSync(a) === realpathSync(b);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
		throw error;
	}
}
