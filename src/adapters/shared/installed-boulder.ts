/**
 * Which installed boulder the portable hook commands of a harness run here,
 * looked up the way their shell does it (`portable-command.ts`): the
 * project's devDependency, the user's link, the PATH. For `boulder doctor`.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { whichProgram } from "../../engine/programs.js";
import { packageAt } from "./config-file.js";
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

/** The boulder portable hooks run here, found the way the shell finds it (`portable-command.ts`). */
export function findInstalledBoulder(
	context: { cwd: string; env: NodeJS.ProcessEnv },
	finder: { bundle: string; link: string; bin: string },
): Installed {
	const own = path.join(projectPackage(context.cwd), finder.bundle);
	if (existsSync(own)) {
		return { kind: "project", where: `the project's devDependency, ${own}`, version: versionOf(own) };
	}
	const link = hookLinkFile(context.env, finder.link);
	let danglingLink: Installed["danglingLink"];
	const target = linkTarget(link);
	if (target !== null) {
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

function linkTarget(link: string): string | null {
	let text: string;
	try {
		text = readFileSync(link, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
		throw error;
	}
	return hookLinkTarget(text);
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
