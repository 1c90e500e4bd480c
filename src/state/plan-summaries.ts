/**
 * The plan-summary cache: for each plan of a worktree's works, what a status
 * view shows of it (`core/plan-summary.ts`) and the stamp of the file it was
 * read from, kept in `.boulder/plan-summaries.json` so that `boulder status`
 * over a fleet parses only the plans that changed since it last looked.
 *
 * A cache, not state: it holds nothing the plans do not. A file that is
 * missing, torn, of another format or the wrong shape reads as empty and is
 * replaced whole by the next write; it is never moved aside or reported, and
 * it is written without flushing to disk.
 *
 * Contract: an entry is only good for the exact stamp it was stored with;
 * the caller makes stamps that change whenever the plan's content can have.
 */
import { PLAN_SUMMARY_FORMAT, PlanSummary } from "../core/plan-summary.js";
import { z } from "../core/zod.js";
import { writeFileAtomic } from "./atomic-write.js";
import { inspectVersionedFile, type VersionedFileSpec } from "./versioned-file.js";

export const PLAN_SUMMARIES_FILE = "plan-summaries.json";

export const PlanSummaryEntry = z.lazy(() =>
	z.object({
		/** Which version of the plan file the summary was made from (`PlanSource.stamp`). */
		stamp: z.string(),
		summary: PlanSummary,
	}),
);
export type PlanSummaryEntry = z.infer<typeof PlanSummaryEntry>;

/** Keyed by the plan's absolute path. */
export type PlanSummaries = Record<string, PlanSummaryEntry>;

export const PlanSummariesFile = z.lazy(() =>
	z.object({
		/** The summary format: a cache of another one is not used. */
		schemaVersion: z.literal(PLAN_SUMMARY_FORMAT),
		plans: z.record(z.string(), PlanSummaryEntry),
	}),
);
export type PlanSummariesFile = z.infer<typeof PlanSummariesFile>;

const spec: VersionedFileSpec<PlanSummariesFile> = {
	label: "plan-summary cache",
	currentVersion: PLAN_SUMMARY_FORMAT,
	schema: PlanSummariesFile,
	migrations: [],
};

/** The kept summaries; empty whenever the file is not a usable cache (see the header). */
export async function readPlanSummaries(file: string): Promise<PlanSummaries> {
	const read = await inspectVersionedFile(file, spec);
	return read.kind === "ok" ? read.value.plans : {};
}

export async function writePlanSummaries(file: string, plans: PlanSummaries): Promise<void> {
	const value: PlanSummariesFile = { schemaVersion: PLAN_SUMMARY_FORMAT, plans };
	await writeFileAtomic(file, JSON.stringify(value), { durable: false });
}
