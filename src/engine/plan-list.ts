/**
 * Finds plan files and sums them up for `boulder plans`: the plans of the
 * worktree's works, those kept in `.boulder/plans/` and those named on the
 * command line (a folder stands for the Markdown files in it). Reads only:
 * plans are the user's files, and a worktree without a `.boulder/` folder
 * does not get one.
 */

import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { clipTitle } from "../core/clip.js";
import type { Clock } from "../core/clock.js";
import { type PlanError, parsePlan } from "../core/plan-parser.js";
import { FileStore } from "../state/file-store.js";
import { keptPlansFolder } from "../state/kept-plans.js";
import type { WorkStatus } from "../state/works.js";
import { filePlans } from "./plan-files.js";
import type { PlanProgress } from "./status.js";

export interface PlanSummary {
	/** Relative to the worktree with `/` separators when inside it; absolute otherwise. */
	path: string;
	name: string | null;
	progress: PlanProgress | null;
	next: string | null;
	errors: PlanError[];
	/** The work rolling this plan, if one was started from it. */
	work: { id: string; status: WorkStatus } | null;
	/** Why the plan could not be read at all. */
	problem: string | null;
}

export async function collectPlans(
	worktree: string,
	cwd: string,
	given: readonly string[],
	clock: Clock,
): Promise<PlanSummary[]> {
	const files: string[] = [];
	const problems: PlanSummary[] = [];
	const add = (file: string) => {
		if (!files.includes(file)) files.push(file);
	};
	// Only reads: no worktree index entry, no `.boulder/` folder.
	const works = await new FileStore(worktree, { clock }).peekWorks();
	const workByPlan = new Map<string, { id: string; status: WorkStatus }>();
	if (works.kind === "ok") {
		for (const work of Object.values(works.value.works)) {
			const current = workByPlan.get(work.planPath);
			// A live work wins over finished ones started from the same plan.
			if (!current || work.status === "active" || work.status === "paused") {
				workByPlan.set(work.planPath, { id: work.id, status: work.status });
			}
		}
	}
	for (const [planPath, work] of workByPlan) {
		const file = path.resolve(worktree, planPath);
		// A finished work's plan may be long gone: that is history, not a problem.
		if (work.status === "active" || work.status === "paused" || (await kindOf(file)) === "file") add(file);
	}
	for (const file of await markdownIn(keptPlansFolder(worktree))) add(file);
	for (const entry of given) {
		const absolute = path.resolve(cwd, entry);
		const kind = await kindOf(absolute);
		if (kind === "folder") for (const file of await markdownIn(absolute)) add(file);
		else if (kind === "file") add(absolute);
		else problems.push(emptySummary(displayPath(worktree, absolute), `no such file or folder: ${entry}`));
	}
	const summaries = await Promise.all(
		files.map(async (file) => {
			const shown = displayPath(worktree, file);
			const summary = await summarize(worktree, file, shown);
			return { ...summary, work: workByPlan.get(shown) ?? null };
		}),
	);
	return [...summaries, ...problems];
}

async function summarize(worktree: string, file: string, shown: string): Promise<PlanSummary> {
	let text: string | null;
	try {
		text = await filePlans.read(worktree, file);
	} catch (error) {
		return emptySummary(shown, `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (text === null) return emptySummary(shown, "no such file");
	const plan = parsePlan(text, shown);
	const { total, completed, open, blocked, cancelled } = plan.counts;
	return {
		path: shown,
		name: plan.frontMatter.name ?? headingOf(text) ?? path.basename(file, path.extname(file)),
		progress: { total, done: completed, open, blocked, cancelled },
		next: plan.next ? clipTitle(plan.next.title) : null,
		errors: plan.errors,
		work: null,
		problem: null,
	};
}

/**
 * Why `given` (as the user typed it, relative to `cwd`) cannot be started as
 * a plan, when it names a folder; null otherwise (a missing file is the
 * start's to report).
 */
export async function folderNotPlan(cwd: string, given: string): Promise<string | null> {
	if ((await kindOf(path.resolve(cwd, given))) !== "folder") return null;
	return `${given} is a folder, not a plan file: name the Markdown plan in it (\`boulder plans ${given}\` lists them)`;
}

function emptySummary(shown: string, problem: string): PlanSummary {
	return { path: shown, name: null, progress: null, next: null, errors: [], work: null, problem };
}

function displayPath(worktree: string, file: string): string {
	const relative = path.relative(worktree, file);
	if (relative.startsWith("..") || path.isAbsolute(relative)) return file;
	return relative.split(path.sep).join("/");
}

async function markdownIn(dir: string): Promise<string[]> {
	let names: string[];
	try {
		names = await readdir(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	return names
		.filter((name) => /\.(md|markdown)$/i.test(name))
		.sort()
		.map((name) => path.join(dir, name));
}

async function kindOf(file: string): Promise<"file" | "folder" | null> {
	try {
		const info = await stat(file);
		return info.isDirectory() ? "folder" : "file";
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return null;
		throw error;
	}
}

function headingOf(text: string): string | null {
	return /^#\s+(.+)$/m.exec(text)?.[1]?.trim() || null;
}
