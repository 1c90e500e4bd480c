/**
 * The harness versions boulder was tested with, in one place
 * (`tested-versions.json`): the version each end-to-end suite pins
 * (`test/harnesses/package.json`, kept equal by a test) and the newest the
 * compatibility lane (`npm run test:latest`) last passed, with its date. The
 * lane rewrites `lanePassed`; every doctor reads it here.
 *
 * `boulder doctor` warns when the harness on the PATH is newer than the
 * newest tested one. The installed version is read without running the
 * harness: its program, links followed, lies inside its npm package
 * (`package.json` names it) or in a folder named for its version (Claude
 * Code's native installs, `…/versions/2.1.332`). Unknown: nothing is said.
 */
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type { DoctorFinding } from "../../engine/doctor-types.js";
import { whichProgram } from "../../engine/programs.js";
import TESTED_JSON from "./tested-versions.json" with { type: "json" };

export interface TestedHarness {
	title: string;
	/** Its command on the PATH. */
	program: string;
	/** Its npm package. */
	package: string;
	/** The version the end-to-end suites pin. */
	pinned: string;
	/** The newest release the compatibility lane last passed, and when. */
	lanePassed: { version: string; date: string } | null;
}

export const TESTED: Readonly<Record<string, TestedHarness>> = TESTED_JSON;

/** The newest version boulder was tested with: the pin or the lane's, whichever is newer. */
export function newestTested(harness: TestedHarness): string {
	const lane = harness.lanePassed?.version;
	return lane && compareVersions(lane, harness.pinned) > 0 ? lane : harness.pinned;
}

/** Compares dotted numeric versions (a pre-release suffix is ignored): negative, 0 or positive. */
export function compareVersions(a: string, b: string): number {
	const parts = (version: string) =>
		version
			.split(/[-+]/)[0]
			?.split(".")
			.map((part) => Number.parseInt(part, 10) || 0) ?? [];
	const [left, right] = [parts(a), parts(b)];
	for (let index = 0; index < Math.max(left.length, right.length); index++) {
		const difference = (left[index] ?? 0) - (right[index] ?? 0);
		if (difference !== 0) return difference;
	}
	return 0;
}

const VERSION = /^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/;

/** The version of `harness` that `env`'s PATH runs, read from its files; null when it cannot be told. */
export function installedVersion(harness: TestedHarness, env: NodeJS.ProcessEnv): string | null {
	const found = whichProgram(harness.program, env);
	if (found === null) return null;
	let file: string;
	try {
		file = realpathSync(found);
	} catch {
		return null;
	}
	for (let dir = path.dirname(file), depth = 0; depth < 6; dir = path.dirname(dir), depth++) {
		const manifest = readManifest(path.join(dir, "package.json"));
		if (manifest?.name === harness.package && typeof manifest.version === "string") return manifest.version;
		if (dir === path.dirname(dir)) break;
	}
	const named = path.basename(file);
	return VERSION.test(named) ? named : null;
}

function readManifest(file: string): { name?: unknown; version?: unknown } | null {
	try {
		const value: unknown = JSON.parse(readFileSync(file, "utf8"));
		return typeof value === "object" && value !== null ? value : null;
	} catch {
		return null;
	}
}

/** The doctor's finding for one harness: a warning when the installed one is newer than any boulder was tested with. */
export function harnessVersionFindings(name: string, env: NodeJS.ProcessEnv): DoctorFinding[] {
	const harness = TESTED[name];
	if (!harness) return [];
	const installed = installedVersion(harness, env);
	if (installed === null) return [];
	const newest = newestTested(harness);
	if (compareVersions(installed, newest) <= 0) return [];
	return [
		{
			check: name,
			level: "warn",
			message: `${harness.title} ${installed} is installed, newer than the newest version boulder was tested with (${newest}): its hooks or files may have changed`,
			fix: `if boulder misbehaves, install ${harness.package}@${newest}, or run boulder's compatibility lane (\`npm run test:latest\`) and report what fails`,
		},
	];
}
