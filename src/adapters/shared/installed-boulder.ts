/**
 * Which installed boulder the portable hook commands of a harness run here,
 * looked up the way their shell does it (`portable-command.ts`): the
 * project's devDependency (in the folder, or upwards to the project's root
 * where the harness names no project folder, and then only the user's own),
 * the user's link, the PATH. The one finder: `boulder doctor` and the
 * installer's notes ask it, for every command-hook harness.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { whichProgram } from "../../engine/programs.js";
import { PACKAGE_NAME, packageAt } from "./config-file.js";
import { hookLinkFile, hookLinkTarget, projectPackage } from "./hook-link.js";
import { rootOfBundle } from "./programs.js";

export interface Installed {
	kind: "project" | "link" | "path" | "none";
	/** In words: where it was found. */
	where: string;
	version: string | null;
	/** The user's link, when it points at a copy that is gone. */
	danglingLink?: { link: string; target: string };
}

/** What the portable command looks for (`PortableFinder`'s parts). */
export interface Finder {
	/** null: the command walks up from the session's folder (`projectDirVar: null`). */
	projectDirVar?: string | null;
	bundle: string;
	link: string | null;
	bin: string;
}

/** The boulder portable hooks run here, found the way the shell finds it (`portable-command.ts`). */
export function findInstalledBoulder(context: { cwd: string; env: NodeJS.ProcessEnv }, finder: Finder): Installed {
	const own = finder.projectDirVar === null ? ownUpwards(context.cwd, finder.bundle) : ownHere(context.cwd, finder);
	if (own !== null) {
		return { kind: "project", where: `the project's devDependency, ${own}`, version: versionOf(own) };
	}
	let danglingLink: Installed["danglingLink"];
	const link = finder.link === null ? null : hookLinkFile(context.env, finder.link);
	const target = link === null ? null : linkTarget(link);
	if (link !== null && target !== null) {
		if (existsSync(target)) {
			return { kind: "link", where: `linked for you in ${link} → ${target}`, version: versionOf(target) };
		}
		danglingLink = { link, target };
	}
	const onPath = whichProgram(finder.bin, context.env);
	if (onPath !== null) {
		return { kind: "path", where: `${onPath} on the PATH`, version: versionOf(onPath), danglingLink };
	}
	return { kind: "none", where: "nowhere", version: null, danglingLink };
}

function ownHere(cwd: string, finder: Finder): string | null {
	const own = path.join(projectPackage(cwd), finder.bundle);
	return existsSync(own) ? own : null;
}

/** Upwards to the project's root, a copy that is the user's own (as the shell's `-O`); null: none. */
function ownUpwards(cwd: string, bundle: string): string | null {
	let dir = path.resolve(cwd);
	for (;;) {
		const modules = path.join(dir, "node_modules");
		const own = path.join(modules, PACKAGE_NAME, bundle);
		if (existsSync(own)) return ownedByUser(modules, path.join(modules, PACKAGE_NAME), own) ? own : null;
		if (existsSync(path.join(dir, ".git")) || existsSync(path.join(dir, "package.json"))) return null;
		const parent = path.dirname(dir);
		if (parent === dir) return null;
		dir = parent;
	}
}

/** As the shell's `-O`: each exists and belongs to this user (links followed). Where there are no users, true. */
function ownedByUser(...files: string[]): boolean {
	const uid = process.getuid?.();
	if (uid === undefined) return true;
	return files.every((file) => {
		try {
			return statSync(file).uid === uid;
		} catch {
			return false;
		}
	});
}

function linkTarget(link: string): string | null {
	const text = readFileOrNull(link);
	return text === null ? null : hookLinkTarget(text);
}

/** A file's text; null when it does not exist. */
export function readFileOrNull(file: string): string | null {
	try {
		return readFileSync(file, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
}

/** The version of the boulder-agent package a hook program (or a link to it) belongs to. */
function versionOf(program: string): string | null {
	let real: string;
	try {
		real = realpathSync(program);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
	return packageAt(rootOfBundle(real))?.version ?? null;
}
